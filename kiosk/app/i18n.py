"""English and Japanese texts: gettext ``.po`` catalogs read by a small pure-Python reader.

The catalogs live in ``locale/<lang>/LC_MESSAGES/gammon_kiosk.po`` (the gettext layout, so
``msgfmt`` or babel can compile them later); English is the msgid itself. :func:`tr` is what the
``.kv`` files and widgets call: ``tr(model.language, "Double")``, so that Kivy re-evaluates the
text when the language changes. A msgid missing from a catalog falls back to English.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

DOMAIN = "gammon_kiosk"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES: tuple[str, ...] = ("en", "ja")


class PoError(ValueError):
    """A ``.po`` file that cannot be read; the message names the line."""


def read_po(text: str) -> dict[str, str]:
    """The msgid -> msgstr pairs of a ``.po`` file (no plurals, no contexts; fuzzy skipped)."""
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr is not None:
            key, value = "".join(msgid), "".join(msgstr)
            if key and value and not fuzzy:
                entries[key] = value
        msgid = msgstr = None
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                flush()
                fuzzy = True
        elif line.startswith("msgid "):
            pending_fuzzy = fuzzy
            flush()
            fuzzy = pending_fuzzy
            msgid = current = [_string(line[6:], number)]
        elif line.startswith("msgstr "):
            if msgid is None:
                raise PoError(f"line {number}: msgstr without msgid")
            msgstr = current = [_string(line[7:], number)]
        elif line.startswith('"'):
            if current is None:
                raise PoError(f"line {number}: string outside an entry")
            current.append(_string(line, number))
        else:
            raise PoError(f"line {number}: cannot read {line[:40]!r}")
    flush()
    return entries


def _string(token: str, number: int) -> str:
    token = token.strip()
    if len(token) < 2 or not token.startswith('"') or not token.endswith('"'):
        raise PoError(f"line {number}: expected a quoted string")
    try:
        value = ast.literal_eval(token)
    except (SyntaxError, ValueError) as error:
        raise PoError(f"line {number}: bad string: {error}") from None
    if not isinstance(value, str):
        raise PoError(f"line {number}: expected a string")
    return value


@cache
def catalog(language: str) -> dict[str, str]:
    """The translations for ``language`` (empty for English or a language with no catalog)."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == "en" or not path.is_file():
        return {}
    return read_po(path.read_text(encoding="utf-8"))


def tr(language: str, msgid: str) -> str:
    """``msgid`` in ``language`` (English when untranslated)."""
    return catalog(language).get(msgid, msgid)
