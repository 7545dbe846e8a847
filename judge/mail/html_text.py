"""HTML to the text a reader sees: blocks as lines, quotes, heads, styles and scripts
left out."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "ul",
    ]
)
_SKIP_TAGS = frozenset(("head", "style", "script", "title", "xml", "template", "noscript"))
_HEAD_TAGS = _SKIP_TAGS | {"meta", "link", "base", "basefont", "object"}
_HTML_SPACE = re.compile(r"[ \t\r\n\f]+")


class _HTMLText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: dict[str, int] = {}
        self.quote = 0
        self.pre = 0
        self.paragraphs: list[bool] = []  # open <p>s: True when spaced from the next block
        self.dropped_quote = False
        self.written = False  # any visible text yet

    def _last(self) -> str:
        for piece in reversed(self.parts):
            if piece:
                return piece[-1]
        return "\n"

    def _line_start(self) -> None:
        if self._last() != "\n":
            self.parts.append("\n")

    def _paragraph(self) -> None:
        """A blank line before the next text, unless nothing has been written yet."""
        text = "".join(self.parts[-4:])
        if not self.written or text.endswith("\n\n"):
            return
        self.parts.append("\n" if text.endswith("\n") else "\n\n")

    def _block_end(self, spaced: bool) -> None:
        if spaced:
            self._paragraph()
        else:
            self._line_start()

    def _visible(self) -> bool:
        return not self.quote and not any(self.skipping.values())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" or (self.skipping.get("head") and tag not in _HEAD_TAGS):
            self.skipping.pop("head", None)  # the head ends where the body starts
            self.skipping.pop("title", None)
        if tag in _SKIP_TAGS:
            self.skipping[tag] = self.skipping.get(tag, 0) + 1
            return
        visible = self._visible()
        if tag == "blockquote":
            if visible:
                self._line_start()
            self.quote += 1
            return
        if not visible:
            return
        if tag == "br":
            self.parts.append("\n")
        elif tag == "p":
            # Outlook's MsoNormal paragraphs have no margins: one per line
            css = " ".join(str(value) for name, value in attrs if name == "class").lower()
            self.paragraphs.append("msonormal" not in css)
            self._block_end(self.paragraphs[-1])
        elif tag in _BLOCK_TAGS:
            self._line_start()
        elif tag in ("td", "th") and self._last() not in "\n ":
            self.parts.append(" ")
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS or tag == "blockquote":
            return  # <style/> and the like enclose nothing
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            if self.skipping.get(tag):
                self.skipping[tag] -= 1
            return
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
            if self._visible():
                self._line_start()
            return
        if not self._visible():
            return
        if tag == "p":
            self._block_end(self.paragraphs.pop() if self.paragraphs else True)
        elif tag in _BLOCK_TAGS:
            self._line_start()
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if not self._visible():
            if self.quote and data.strip():
                self.dropped_quote = True
            return
        if not self.pre:
            data = _HTML_SPACE.sub(" ", data)
            if self._last() in "\n ":
                data = data.lstrip(" ")
        if data:
            self.parts.append(data)
            self.written = self.written or not data.isspace()


def _closable(markup: str) -> str:
    """`markup` with each `<` after its last `>` written `&lt;`: no tag, comment or
    declaration can end there, and the stdlib's parser reads each such `<` to the end of
    the text before taking it as text (quadratic: 30 KB of `<a ` took 7 s)."""
    end = markup.rfind(">") + 1
    return markup[:end] + markup[end:].replace("<", "&lt;")


def html_to_text(markup: str, notes: list[str]) -> str:
    """The text a reader of the HTML sees, quotes left out."""
    notes.append("converted HTML to text")
    parser = _HTMLText()
    try:
        parser.feed(_closable(markup))
        parser.close()
    except Exception:  # the parser gave up: what it read so far, else the bare text
        if not "".join(parser.parts).strip():
            return html.unescape(re.sub(r"<[^>]*>", "\n", markup))
    if parser.dropped_quote:
        notes.append("ignored quoted text")
    return "".join(parser.parts)
