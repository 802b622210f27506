"""The chat REPL: one conversation across questions, a few slash commands, Ctrl-C that keeps the session.

I/O is injected (``read`` prompts and returns a line, ``write`` prints one), so tests drive it with
scripted input.
"""

from __future__ import annotations

from collections.abc import Callable

from analytics_agent.agent.events import AgentResult
from analytics_agent.cli.tools_cmd import first_sentence
from analytics_agent.errors import AnalyticsAgentError
from analytics_agent.present.safe_text import escape_control
from analytics_agent.workspace.session import Wiring

HELP = "Ask a question, or: /tools (list tools), /reset (forget the conversation), /exit (or Ctrl-D)."


class ChatSession:
    def __init__(self, wiring: Wiring, *, write: Callable[[str], None]) -> None:
        self.wiring = wiring
        self.agent = wiring.agent
        self.write = write
        self.conversation = self.agent.new_conversation()
        self.show: Callable[[AgentResult, str], None] = lambda result, _question: wiring.show(result, write)
        """Prints an answer; the command line replaces it to add the answer's chart."""

    def run(self, read: Callable[[str], str]) -> None:
        """Read lines until /exit or end of input."""
        self.write(HELP)
        while True:
            try:
                line = read("> ")
            except EOFError:
                self.write("")
                return
            except KeyboardInterrupt:
                self.write("(Ctrl-D or /exit to leave)")
                continue
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """Act on one line; False when the session should end."""
        text = line.strip()
        if not text:
            return True
        if text.startswith("/"):
            return self._command(text)
        try:
            try:
                result = self.agent.ask(text, self.conversation)
            finally:  # an interrupted or failed question leaves no spinner turning over the next prompt
                if self.wiring.spinner is not None:
                    self.wiring.spinner.stop()
        except KeyboardInterrupt:
            self._record_error("interrupted")
            self.write("interrupted: that question was dropped; the conversation goes on")
            return True
        except AnalyticsAgentError as exc:  # the session survives a failing endpoint
            self._record_error(str(exc))
            self.write(f"error: {escape_control(str(exc))}")
            return True
        self.show(result, text)
        return True

    def _command(self, text: str) -> bool:
        command = text.split()[0].lower()
        if command in ("/exit", "/quit"):
            return False
        if command == "/reset":
            self.conversation = self.agent.new_conversation()
            self.write("The conversation is cleared.")
        elif command == "/tools":
            for tool in self.agent.registry:
                self.write(f"{tool.name}: {first_sentence(tool.description)}")
        elif command == "/help":
            self.write(HELP)
        else:
            self.write(f"unknown command {command}. {HELP}")
        return True

    def _record_error(self, message: str) -> None:
        if self.wiring.transcript is not None:
            self.wiring.transcript.error(message)
