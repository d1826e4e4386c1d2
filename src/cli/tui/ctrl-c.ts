/** What one Ctrl-C does, given where the session is. */
export type CtrlCAction = 'deny_approval' | 'cancel_turn' | 'clear_input' | 'confirm_exit' | 'exit';

export interface CtrlCState {
  /** An approval question is on screen. */
  approval: boolean;
  /** A turn (or a slash command) is running. */
  running: boolean;
  inputEmpty: boolean;
}

/**
 * Ctrl-C as other terminal agents have it: at an approval it answers no and stops the turn (a second
 * one soon after exits), during a turn it cancels (a second one soon after exits), with text at the prompt it clears it, and at
 * an empty prompt it asks for a second press before exiting. Any other key takes that back.
 */
export class CtrlCPolicy {
  private lastCancel = Number.NEGATIVE_INFINITY;
  /** "Press Ctrl-C again to exit" is on screen. */
  exitArmed = false;

  constructor(
    private readonly doubleWithinMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  press(state: CtrlCState): CtrlCAction {
    const soonAfterCancel = this.now() - this.lastCancel < this.doubleWithinMs;
    if (state.approval && !soonAfterCancel) {
      this.lastCancel = this.now();
      return 'deny_approval';
    }
    if (state.running || state.approval) {
      if (soonAfterCancel) return 'exit';
      this.lastCancel = this.now();
      return 'cancel_turn';
    }
    if (!state.inputEmpty) {
      this.exitArmed = false;
      return 'clear_input';
    }
    // Pressed twice in quick succession while the cancelled turn was winding down: that was meant as a double press.
    if (this.exitArmed || soonAfterCancel) return 'exit';
    this.exitArmed = true;
    return 'confirm_exit';
  }

  /** Any other key: the next Ctrl-C at an empty prompt asks again. */
  otherKey(): void {
    this.exitArmed = false;
  }
}
