import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/permission-modes.js';

/** How an editor's mode picker shows each permission mode; the ids are the `--permission-mode` names. */
const SHOWN: Record<PermissionMode, Omit<SessionMode, 'id'>> = {
  ask: { name: 'Ask', description: 'Asks before every edit, write and command.' },
  'auto-edit': { name: 'Auto-edit', description: 'File edits run without asking; commands still ask.' },
  auto: { name: 'Auto', description: 'Nobody is asked: built-in rules and a reviewer model allow or refuse each call.' },
  yolo: { name: 'Yolo', description: 'Everything runs without asking.' },
  plan: { name: 'Plan', description: 'Only read-only tools run; the turn ends with a plan.' },
};

/** The session's modes for `session/new` and `session/load`: every permission mode, the current one marked. */
export function sessionModes(current: PermissionMode): SessionModeState {
  return { currentModeId: current, availableModes: PERMISSION_MODES.map((id) => ({ id, ...SHOWN[id] })) };
}

/** The permission mode a `session/set_mode` names, or undefined for an id that is none. */
export function permissionModeOf(modeId: string): PermissionMode | undefined {
  return PERMISSION_MODES.find((mode) => mode === modeId);
}
