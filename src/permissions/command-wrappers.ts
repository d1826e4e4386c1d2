/**
 * Commands that run the rest of their arguments as another command. One list serves both sides:
 * deny rules look through them (`sudo rm` is still `rm`), and an "always" grant never becomes a
 * prefix on one (`ionice*` would allow any command run through ionice).
 */
export const WRAPPERS: ReadonlySet<string> = new Set([
  // shell grammar that starts a command
  'then', 'do', 'else', 'if', 'while', 'until', '{', '!',
  // builtins and privilege
  'command', 'builtin', 'exec', 'eval', 'env', 'sudo', 'doas', 'su', 'runuser', 'sg', 'newgrp', 'pkexec',
  // scheduling, limits and namespaces
  'nice', 'nohup', 'time', 'timeout', 'stdbuf', 'ionice', 'setsid', 'flock', 'taskset', 'chrt', 'setpriv', 'prlimit', 'numactl',
  'unshare', 'nsenter', 'chroot', 'cgexec', 'setarch', 'linux32', 'linux64', 'systemd-run', 'firejail', 'bwrap', 'sandbox-exec', 'caffeinate',
  // tracing, terminals, repetition and the like
  'xargs', 'parallel', 'watch', 'entr', 'strace', 'ltrace', 'valgrind', 'catchsegv', 'unbuffer', 'faketime', 'script',
  'proxychains', 'proxychains4', 'torsocks', 'tsocks', 'chpst', 'daemonize', 'dbus-run-session', 'xvfb-run', 'busybox', 'toybox',
]);

export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);

/** Wrappers, shells and interpreters: whatever follows them can be any program. */
export const RUNS_ANYTHING: ReadonlySet<string> = new Set([
  ...WRAPPERS, ...SHELLS,
  'source', '.', 'find', 'perl', 'ruby', 'php', 'lua', 'awk', 'gawk', 'mawk', 'sed', 'deno', 'tclsh', 'expect', 'osascript', 'ssh',
]);
