"""Names that cannot lie: what a name of a player, a device, a group or a season may hold.

A name is shown inside other text (« Ann a gagné », a list of players, a device in a
game's history). Some characters are invisible and change how the text *around*
them reads: the bidirectional controls (U+202A–202E embeddings and overrides, U+2066–2069
isolates, U+200E/200F marks, U+061C the Arabic letter mark) turn « Ann » into a name that
shows backwards, or make the words after it run the wrong way — a name that says
something else than what it is. One rule, :func:`refusal`, decides for every name the
app keeps: the forms (``companion.groups.forms``) and an imported file
(``companion.groups.transfer``).

Refused, as NUL is refused:

- every control character (Unicode category Cc) left after spaces are folded — the
  C1 controls U+0080–009F among them;
- every format character (category Cf): the bidi controls above, the invisible ones
  (U+200B zero-width space, U+2060 word joiner, U+FEFF, the soft hyphen U+00AD), the
  Arabic number signs U+0600–0605, the interlinear annotations U+FFF9–FFFB, the tag
  characters U+E0000–E007F…;
- more than :data:`MARKS_MAX` combining marks piled on one letter (« Zalgo » text, whose
  marks climb over the lines above and below).

Kept, because real names need them:

- the zero-width joiner U+200D and non-joiner U+200C *between two visible characters*:
  they make emoji sequences (👨‍👩‍👧, 🏳️‍🌈) and are part of how Persian and the scripts of
  India are written (« می‌خواهم »). At either end of a name, or beside a space, they join
  nothing of the name — only the text around it (a name ending in U+200D glues itself to
  the emoji that follows it in a sentence) — so they are refused there;
- the tag characters in the one sequence that uses them, a subdivision flag
  (🏴 U+1F3F4, tags U+E0020–E007E, then U+E007F: 🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland);
- letters of any script, right-to-left ones too (an Arabic or Hebrew name is a name),
  variation selectors (U+FE0F: an emoji's colours), private-use and not yet assigned
  code points (a newer emoji than this server's Unicode tables).
"""

from __future__ import annotations

import re
import unicodedata

from companion.i18n import gettext as _

#: At most this many combining marks on one letter (Vietnamese, Hebrew with its points,
#: Tibetan stacks need up to three or four).
MARKS_MAX = 4

_JOINERS = "\u200c\u200d"
#: A subdivision flag: the black flag, tag characters, the cancel tag.
_TAG_FLAG = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


def _plain(char: str) -> bool:
    """Whether ``char`` is something a joiner may stand beside (not a space, a control
    or a format character)."""
    return not char.isspace() and unicodedata.category(char) not in ("Cc", "Cf")


def misleading(name: str) -> str | None:
    """The first character of ``name`` that would change how it, or the text around it,
    reads (as ``U+XXXX``), or None when there is none.

    >>> [misleading(n) for n in ("Ann", "Ann\u202egnaG", "\u2067Ann\u2069", "A\u200enn", "Z\u00adoé")]
    [None, 'U+202E', 'U+2067', 'U+200E', 'U+00AD']
    >>> misleading("👨\u200d👩\u200d👧"), misleading("می\u200cخواهم"), misleading("Ann\u200d")
    (None, None, 'U+200D')
    >>> scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    >>> misleading("Les " + scotland), misleading("A\U000e0041")
    (None, 'U+E0041')
    >>> misleading("A\u009bB"), misleading("Ann \u200c Bob")
    ('U+009B', 'U+200C')
    """
    flags = {i for match in _TAG_FLAG.finditer(name) for i in range(match.start() + 1, match.end())}
    for i, char in enumerate(name):
        if unicodedata.category(char) not in ("Cc", "Cf") or i in flags:
            continue
        if char in _JOINERS and 0 < i < len(name) - 1 and _plain(name[i - 1]) and _plain(name[i + 1]):
            continue
        return f"U+{ord(char):04X}"
    return None


def piled_marks(name: str) -> bool:
    """Whether more than :data:`MARKS_MAX` combining marks sit on one letter of ``name``.

    >>> piled_marks("Nguyễn"), piled_marks("שָׁלוֹם"), piled_marks("x" + "\u0301\u0300\u0302\u0303\u0308")
    (False, False, True)
    """
    run = 0
    for char in unicodedata.normalize("NFC", name):
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if run > MARKS_MAX:
            return True
    return False


def refusal(name: str) -> str | None:
    """Why ``name`` cannot be kept as a name (a sentence in this request's language), or
    None when it can. The one check of every name field, and of an imported file."""
    found = misleading(name)
    if found is not None:
        return _(
            "This name holds an invisible character (%(code)s) that changes how the text around it reads: remove it.",
            code=found,
        )
    if piled_marks(name):
        return _("This name piles too many marks on one letter: keep at most %(max)d.", max=MARKS_MAX)
    return None
