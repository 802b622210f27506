"""The command line's edge: one line per error, never a traceback. Needs no typer, so a command run
without it (``load``, see ``load_args``) answers its errors exactly as every other command does."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from analytics_agent.errors import AnalyticsAgentError, Interrupted


def say(text: str) -> None:
    """One line on stderr, flushed (as click's ``echo(err=True)`` writes it)."""
    print(text, file=sys.stderr, flush=True)


def guarded(run: Callable[[], object]) -> None:
    """Run a command; our errors, Ctrl-C and bugs end in one line and an exit code."""
    try:
        run()  # typer handles usage errors and exits itself; our errors come through here
    except AnalyticsAgentError as exc:
        from analytics_agent.present.safe_text import escape_control  # the error path only

        code = getattr(exc, "exit_code", 1)  # Interrupted: 130, and its message says what state it left
        text = escape_control(str(exc))  # may quote the endpoint, a CSV value or a tool file
        say(text if code == Interrupted.exit_code else f"error: {text}")
        sys.exit(code)
    except KeyboardInterrupt:
        say("interrupted")
        _exit_now(130)
    except BrokenPipeError:  # the reader of our output went away (`| head`): exit as click does, quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush cannot fail
        sys.exit(1)
    except SystemExit as exc:
        if exc.code != 130:
            raise
        # typer turns a Ctrl-C inside a command into a silent exit 130; say it, in one line
        say("interrupted")
        _exit_now(130)
    except Exception as exc:  # a bug: keep the user's screen clean, keep the details in a log
        path = _log_crash(exc)
        say(f"error: internal error ({type(exc).__name__}); details in {path}")
        sys.exit(2)


def _exit_now(code: int) -> None:
    """Exit with ``code`` without waiting for worker threads still busy after Ctrl-C (a question still
    with the model under ``eval --jobs``, a tool call in Python code): the interpreter's exit would join
    each, up to its request deadline. Everything that writes (a load, a transcript line) has finished or
    rolled back by the time the interrupt reaches here; only buffered output needs flushing."""
    import contextlib
    import threading

    busy = [t for t in threading.enumerate() if t is not threading.current_thread() and not t.daemon]
    if not busy:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more can be said
            stream.flush()
    os._exit(code)


def _log_crash(exc: BaseException) -> str:
    import traceback

    from analytics_agent.paths import data_dir, open_private_log

    path = data_dir() / "crash.log"
    try:
        with open_private_log(path) as fh:  # 0600: a traceback can quote data and paths
            fh.write("".join(traceback.format_exception(exc)))
        return str(path)
    except OSError as failure:
        return f"(no log: {path} cannot be written: {failure.strerror or failure})"
