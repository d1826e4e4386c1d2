/** The trace page's stylesheet (a string module, like the script, so the bundle carries it). */
export const PAGE_STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #fafbfc; }
#app { max-width: 1200px; margin: 0 auto; padding: 16px; }
h1 { font-size: 20px; margin: 0 0 12px; }
h4 { margin: 10px 0 4px; font-size: 13px; }
#totals { border-collapse: collapse; margin-bottom: 12px; }
#totals th { text-align: left; font-weight: 600; padding: 1px 12px 1px 0; color: #555; }
#totals td { padding: 1px 0; }
#chart { background: #fff; border: 1px solid #dde; border-radius: 6px; padding: 4px; margin-bottom: 12px; min-height: 40px; }
#filters { position: sticky; top: 0; z-index: 2; background: #fafbfc; padding: 8px 0; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; border-bottom: 1px solid #dde; }
#filters input[type=search] { width: 280px; }
#filter-turn { width: 80px; }
#shown-count { color: #666; }
.turn { border: 1px solid #dde; border-radius: 6px; margin: 6px 0; background: #fff; content-visibility: auto; contain-intrinsic-size: auto 34px; }
.turn > summary { cursor: pointer; padding: 6px 10px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.turn .body { padding: 4px 12px 12px; border-top: 1px solid #eef; }
.seq { font-weight: 700; }
.bad, .bad-text { color: #b3261e; }
.good { color: #2e7d32; }
.neutral { color: #555; }
#outcome { border-collapse: collapse; margin-bottom: 12px; width: 100%; }
#outcome th { text-align: left; vertical-align: top; font-weight: 600; padding: 2px 12px 2px 0; color: #555; width: 1%; }
#outcome pre { margin: 2px 0; max-height: 240px; }
.warn { color: #a15c00; }
.note { color: #555; font-style: italic; margin: 4px 0; }
.retry { color: #a15c00; margin: 2px 0; }
.repair { color: #a15c00; margin: 2px 0; }
.usage { color: #334; margin: 6px 0; font-size: 13px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f4f6f8; padding: 6px 8px; border-radius: 4px; margin: 2px 0 6px; max-height: 480px; overflow: auto; }
pre.args { background: #eef3fb; }
.msg { border-left: 3px solid #ccd; padding-left: 8px; margin: 6px 0; }
.msg-head { font-size: 12px; color: #555; }
.role { font-weight: 700; text-transform: uppercase; font-size: 11px; }
.role-user { color: #2f6fdf; } .role-assistant { color: #5aa469; } .role-tool { color: #8a5cb8; } .role-system { color: #777; }
.tool { border: 1px solid #e4e4ee; border-radius: 4px; padding: 6px 8px; margin: 6px 0; }
.tool-head { margin-bottom: 4px; }
.label { font-size: 11px; color: #777; text-transform: uppercase; }
.subagent { margin: 8px 0 0 16px; padding-left: 8px; border-left: 3px solid #8a5cb8; }
.compaction { background: #fff8e6; border-radius: 4px; padding: 4px 8px; margin: 6px 0; }
button.more { font-size: 12px; margin: 0 0 6px; }
#skipped { border: 1px solid #b3261e; border-radius: 6px; padding: 6px 10px; margin-bottom: 12px; background: #fff4f3; }
`;
