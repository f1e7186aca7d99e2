"""The prompt's Lua highlighting (pygments' LuaLexer), loaded in a helper
thread once the prompt is drawn: importing the lexer and compiling its
patterns takes 11 ms, which the prompt does not wait for (in a thread along
with the start's own imports, it only slowed them down).  Until it is there,
the line shows plain, then it is redrawn in colour.
"""
import _thread   # (threading's import, 0.8 ms)

_lexer = []        # the PygmentsLexer, once made


def _load(session):
    from prompt_toolkit.lexers import PygmentsLexer
    from pygments.lexers.scripting import LuaLexer
    if not _lexer:
        _lexer.append(PygmentsLexer(LuaLexer))
    session.lexer = _lexer[0]
    session.app.invalidate()       # (thread-safe: a redraw in the prompt's loop)


def attach(session):
    """Gives a PromptSession Lua's highlighting, from the end of its first
    drawing on (at once when the lexer is already made)."""
    if _lexer:
        session.lexer = _lexer[0]
        return

    def start(app):
        app.after_render -= start
        _thread.start_new_thread(_load, (session,))
    session.app.after_render += start
