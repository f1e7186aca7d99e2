"""The prompt's Lua highlighting (pygments' LuaLexer), loaded in a helper
thread once the prompt is drawn: importing the lexer and compiling its
patterns takes 11 ms, which the prompt does not wait for (in a thread along
with the start's own imports, it only slowed them down).  Until it is there,
the line shows plain (DynamicLexer's fallback), then it is redrawn in colour.
"""
import _thread   # (threading's import, 0.8 ms)

_lexer = []        # the PygmentsLexer, once made
_loading = []      # (made once per process, whatever the prompt sessions)


def _load(app):
    from prompt_toolkit.lexers import PygmentsLexer
    from pygments.lexers.scripting import LuaLexer
    _lexer.append(PygmentsLexer(LuaLexer))
    app.invalidate()       # (thread-safe: a redraw in the prompt's loop)


def attach(session):
    """Gives a PromptSession Lua's highlighting, from the end of the first
    drawing of a prompt on."""
    from prompt_toolkit.lexers import DynamicLexer

    def start(app):
        if not _loading:
            _loading.append(True)
            _thread.start_new_thread(_load, (app,))
    session.app.after_render += start
    session.lexer = DynamicLexer(lambda: _lexer[0] if _lexer else None)
