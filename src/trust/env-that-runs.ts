/**
 * Variables that change what a program runs rather than what it is given: they preload code,
 * pick the interpreter's startup file or where programs and libraries are found. A project's
 * server entry setting one of them runs the repository's code first, whatever its command says.
 */
const NAMES = new Set([
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS',
  'PATH', 'BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'IFS', 'PS4',
  'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONINSPECT',
  'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'RUBYOPT', 'RUBYLIB', 'GEM_PATH', 'GEM_HOME',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH',
  'GIT_EXEC_PATH', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_PARAMETERS',
  'NPM_CONFIG_PREFIX', 'NPM_CONFIG_USERCONFIG', 'NPM_CONFIG_GLOBALCONFIG', 'UV_PYTHON', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'HOME', 'XDG_CONFIG_HOME',
]);
const PREFIXES = ['LD_', 'DYLD_', 'GIT_CONFIG_', 'NPM_CONFIG_'];

export function changesWhatRuns(name: string): boolean {
  const upper = name.toUpperCase();
  return NAMES.has(upper) || PREFIXES.some((prefix) => upper.startsWith(prefix));
}
