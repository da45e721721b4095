"""Every use of Textual's (and its renderer Rich's) undocumented internals, in one place.

Textual is pinned to the minor version these were written against (pyproject.toml);
tests/tui/test_textual_contract.py fails when an upgrade takes away or changes what this
module relies on. Nothing else imports a private Textual name. The package is shared by
the client and the server's terminal workers (server/doors/terminal/), which use most of it.

What it relies on (Textual 8.2, Rich 15) and what each buys:
- `textual._compositor`: the screen updates `LayoutUpdate` (rows of strips from a
  region's corner) and `ChopsUpdate` (`chops`, `chop_ends`, `spans`), handed whole to
  a session's screen relay by `StripDisplay` instead of as escape sequences: parsing
  those back (it used pyte) cost more than the rest of a playing session together
  (docs/decisions/screen-relay.md; `scripts/bench_redraw.py`).
- `App._display(screen, renderable)`, overridden by `StripDisplay`, with the app's
  `_batch_count`, `_running`, `_closed`, `_driver` and `_handle_exception` as Textual's
  own `_display` reads them.
- `textual._xterm_parser.XTermParser` (`feed`, `tick`, and `_timeout_time`, set while a
  lone ESC waits): the keys of a session's PTY parsed as Textual's drivers parse them,
  in the event loop (`parser_waiting`).
- `LinuxDriver._patch_lflag` / `_patch_iflag`: the raw mode Textual sets (`raw_mode`).
- `App._capture_stdout` / `_capture_stderr` (`capture_output`): Textual redirects the
  process's stdout while an app runs; a worker runs several apps in one process.
- `textual._context.active_app`: the context variable naming the running app; a
  worker charges each callback's CPU to it (server/doors/terminal/fairness.py).
- Rich's `Style._ansi` (`cached_sgr`, the SGR string Rich caches per style).
- `textual.keys._character_to_key`: the key name Textual gives a typed character
  (tui/ordered.py).
- `textual.widgets._select.SelectCurrent`, `SelectOverlay` (tui/createroom.py): widgets
  Textual does not export, subclassed. `textual.widgets._footer.FooterKey` and
  `StylesCache` are re-exported for the tests only (Textual's own footer keys, which
  tui/footer.py draws cell for cell, imported when first asked for: nothing else loads
  that module; the styles cache `inner_outer` replaces a method of).
- `textual._styles_cache.StylesCache.get_inner_outer`, replaced on import by
  `inner_outer`: Textual caches that method with `functools.lru_cache`, so its key holds
  the instance, and the 1,024 newest keys kept 1,024 widgets' styles caches alive, each
  with the lines it last drew, long after their widgets were gone. In a worker that is
  up to 100,000 objects more for every full garbage collection to walk (issue 31), and
  in a test process half its heap. The colours alone decide the result.
- `Stylesheet._parse_rules` and `Stylesheet._variables`, wrapped by `parse_rules_once`:
  Textual parses every CSS source again for each app (its parse cache is the app's
  stylesheet's), about 30 ms of CPU of an app's 220 ms start, in a worker each session's
  (`scripts/bench_appstart.py`). Parsed rules depend only on the source, where it came
  from and the variables (the theme), and Textual never changes them once parsed (its own
  cache hands the same ones out again), so the process parses each once.
- `Stylesheet._process_component_classes` and a node's `_component_styles`, replaced by
  `style_components`: to style a widget's component classes (an `Input`'s cursor, a
  `DataTable`'s rows), Textual makes a new virtual `DOMNode` for each class every time the
  widget is styled again (its focus moved, a screen came over it), and drops the old
  ones: each about 75 objects in a cycle (the node and its `Styles`), which only a full
  collection frees. A lobby dialog opened and closed left about 45 of them (3,300 of its
  objects), an amount entry 4 each time it took or lost the focus. Each component's node is
  made once and styled again, so a change is worked out and seen as Textual's is.
- `LRUCache`'s links (`_cache`'s values, `[prev, next, key, value]`, a ring): Textual's
  `clear` and `discard` drop links that still point at each other, so everything the
  cache held became cyclic garbage: a `DataTable` cleared for a new room in the lobby's
  list left about 3,500 objects (its rows' strips) for a full collection to find, every
  lobby session at once. `lru_clear` and `lru_discard` take the dropped links apart, and
  what they held is freed at once.
- `Strip`'s seven caches (`_crop_cache`, `_style_cache`, ...: `STRIP_CACHES`), made when
  first used instead of with every strip (`strip_init`, and a property over each cache's
  slot): Textual makes a strip for every line it draws, crops, joins or styles, and each
  made seven `FIFOCache`s that most never used. A game's session kept about 12,000 of
  them alive (38 % of its objects, issue 31), every one walked by each full garbage
  collection. `divide` and `crop_extend` cached the strip itself as their answer, a cycle:
  their caches (`OthersOnly`) keep no such answer.

Still used where they are (subclasses' own overrides of Textual's methods; the
contract test checks each exists): `DataTable._update_dimensions` / `_clear_caches`
(tui/fitted.py), `RichLog._line_cache` / `_size_known` / `_scroll_update`
(tui/eventlog.py), `App._bindings` / `_exit` (tui/app.py), `Select._type_to_search`
(tui/createroom.py), and a `Driver`'s `_app` / `_loop` (server/doors/terminal/driver.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual._context import active_app
from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.cache import FIFOCache, LRUCache
from textual.color import Color
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet
from textual.dom import DOMNode
from textual.drivers.linux_driver import LinuxDriver
from textual.keys import _character_to_key as character_to_key
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.widgets._select import SelectCurrent, SelectOverlay

__all__ = [
    "ChopsUpdate",
    "CompositorUpdate",
    "LayoutUpdate",
    "OthersOnly",
    "SelectCurrent",
    "SelectOverlay",
    "StripDisplay",
    "StylesCache",
    "XTermParser",
    "active_app",
    "cached_sgr",
    "capture_output",
    "character_to_key",
    "colour_system",
    "driver_of",
    "inner_outer",
    "lru_clear",
    "lru_discard",
    "parse_rules_once",
    "parser_waiting",
    "raw_mode",
    "strip_init",
    "style_components",
]


def __getattr__(name: str) -> Any:
    """`FooterKey`, for the tests, imported when asked for: no app of ours loads Textual's
    footer, so a process does not pay for its import."""
    if name == "FooterKey":
        from textual.widgets._footer import FooterKey

        return FooterKey
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class StripDisplay:
    """Mixed into an `App` before it: each screen update Textual would write as escape
    sequences goes to `draw_update` as the compositor's update instead, when
    `draws_updates()` says so; anything else is displayed as Textual does."""

    def draws_updates(self) -> bool:
        return False

    def draw_update(self, update: CompositorUpdate) -> None:
        raise NotImplementedError

    def _display(self, screen: Any, renderable: Any) -> None:
        if not isinstance(renderable, CompositorUpdate) or not self.draws_updates():
            super()._display(screen, renderable)  # type: ignore[misc]
            return
        app: Any = self
        try:
            if not app._batch_count and app._running and not app._closed:
                try:
                    self.draw_update(renderable)
                except Exception as error:
                    app._handle_exception(error)
        finally:
            app.post_display_hook()


def driver_of(app: Any) -> Any:
    """The app's driver (None before it runs): Textual's `App._driver`."""
    return app._driver


def parser_waiting(parser: XTermParser) -> bool:
    """Whether the parser holds a lone ESC until `tick()` tells it from a sequence."""
    return getattr(parser, "_timeout_time", None) is not None


def raw_mode(lflag: int, iflag: int) -> tuple[int, int]:
    """A terminal's local and input flags in the raw mode Textual's LinuxDriver sets."""
    return LinuxDriver._patch_lflag(lflag), LinuxDriver._patch_iflag(iflag)


def capture_output(app: Any, stream: Any) -> None:
    """What the app's `print()`s and stray output go to while it runs (Textual swaps
    them for the process's stdout and stderr)."""
    app._capture_stdout = app._capture_stderr = stream


def colour_system(console: Console) -> ColorSystem | None:
    """The console's colour system as the enum Rich's renderers take (None: no colour)."""
    return console._color_system


def cached_sgr(style: Style) -> str | None:
    """The SGR parameters Rich cached for `style` (None: not rendered yet)."""
    return style._ansi


textuals_inner_outer = StylesCache.get_inner_outer.__wrapped__  # Textual's, uncached


@lru_cache(1024)
def inner_outer(base_background: Color, background: Color) -> tuple[TextualStyle, TextualStyle]:
    """A widget's inner and outer background styles: Textual's own method (which reads
    nothing of its styles cache), cached by the two colours only."""
    return textuals_inner_outer(None, base_background, background)


def _get_inner_outer(
    self: StylesCache, base_background: Color, background: Color
) -> tuple[TextualStyle, TextualStyle]:
    return inner_outer(base_background, background)


StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign]


PARSED_KEPT = 512  # parsed CSS sources kept (about 30 an app and theme)
_parsed: dict[tuple[Any, ...], list[RuleSet]] = {}
_themes: dict[int, tuple[dict[str, str], tuple[tuple[str, str], ...]]] = {}


def _theme(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The CSS variables as a key, worked out once for each dict of them (an app makes a
    new one for each theme; nobody changes one). The dict is kept, so its id is not
    given to another while it names it here."""
    known = _themes.get(id(variables))
    if known is None:
        if len(_themes) >= PARSED_KEPT:
            _themes.clear()
        known = _themes[id(variables)] = (variables, tuple(sorted(variables.items())))
    return known[1]


textuals_parse_rules = Stylesheet._parse_rules  # the contract test compares


def parse_rules_once(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    """`Stylesheet._parse_rules`, parsed once a process for each source and theme."""
    key = (css, read_from, is_default_rules, tie_breaker, scope, _theme(self._variables))
    rules = _parsed.get(key)
    if rules is None:
        rules = textuals_parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        if len(_parsed) >= PARSED_KEPT:
            _parsed.clear()
        _parsed[key] = rules
    return rules


Stylesheet._parse_rules = parse_rules_once  # type: ignore[method-assign]


# Each of `Strip`'s caches and its size, as `Strip.__init__` makes them.
STRIP_CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
textuals_strip_init = Strip.__init__  # the contract test compares


def strip_init(self: Strip, segments: Any, cell_length: int | None = None) -> None:
    """`Strip.__init__` but for the caches, which `_made_when_used` makes when asked for."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


class OthersOnly(FIFOCache[Any, Any]):
    """A strip's cache of `divide` or `crop_extend`, which keeps no answer that is the strip
    itself (`[strip]`, or `strip`): Textual's cached it, and the strip, referring to
    itself, was cyclic garbage once dropped (tens a frame, all their segments). Such an
    answer costs nothing to work out again."""

    __slots__ = ("owner",)

    def __init__(self, maxsize: int, owner: Strip) -> None:
        super().__init__(maxsize)
        self.owner = id(owner)  # not the strip: that would be the cycle again

    def set(self, key: Any, value: Any) -> None:
        itself = value[0] if type(value) is list and len(value) == 1 else value
        if id(itself) != self.owner:
            super().set(key, value)

    __setitem__ = set


SELF_ANSWERS = ("_divide_cache", "_crop_extend_cache")  # may answer with the strip itself


def _made_when_used(name: str, size: int) -> property:
    """The cache `name` of a strip: its slot's value, or a new cache put there."""
    slot = Strip.__dict__[name]  # the slot's own descriptor: where the value lives
    get, put = slot.__get__, slot.__set__
    own = name in SELF_ANSWERS

    def cache(strip: Strip) -> FIFOCache[Any, Any]:
        try:
            return get(strip, Strip)
        except AttributeError:  # not asked for before
            made = OthersOnly(size, strip) if own else FIFOCache(size)
            put(strip, made)
            return made

    return property(cache, put)


for _name, _size in STRIP_CACHES.items():
    setattr(Strip, _name, _made_when_used(_name, _size))
Strip.__init__ = strip_init  # type: ignore[method-assign]


textuals_component_classes = Stylesheet._process_component_classes  # the contract test compares


def style_components(self: Stylesheet, node: DOMNode) -> None:
    """`Stylesheet._process_component_classes`, each component's virtual node made once (the
    module's docstring); the widget is repainted when a component's rules changed."""
    components = node._get_component_classes()
    if not components:
        return
    kept = node._component_styles
    styled: dict[str, Any] = {}
    changed = False
    for component in sorted(components):
        old = kept.get(component)
        virtual = None if old is None else old.node
        before = None if virtual is None else virtual.styles.base.get_rules()
        if virtual is None:
            virtual = DOMNode(classes=component)
            virtual._attach(node)
        self.apply(virtual, animate=False)
        changed = changed or before != virtual.styles.base.get_rules()
        styled[component] = virtual.styles
    kept.clear()
    kept.update(styled)
    if changed:
        node.refresh()


Stylesheet._process_component_classes = style_components  # type: ignore[method-assign]


textuals_lru_clear = LRUCache.clear  # the contract test compares
textuals_lru_discard = LRUCache.discard


def lru_clear(self: LRUCache[Any, Any]) -> None:
    """`LRUCache.clear`, its links taken apart (the module's docstring)."""
    for link in self._cache.values():
        link.clear()
    textuals_lru_clear(self)


def lru_discard(self: LRUCache[Any, Any], key: Any) -> None:
    """`LRUCache.discard`, the dropped link taken apart (the last one pointed at itself)."""
    link = self._cache.get(key)
    textuals_lru_discard(self, key)
    if link is not None:
        link.clear()


LRUCache.clear = lru_clear  # type: ignore[method-assign]
LRUCache.discard = lru_discard  # type: ignore[method-assign]
