"""The text the judge reads commands from: quoted replies, forwards, signatures, mobile
sign-offs and PGP armour left out, invisible characters removed, long lines cut."""

from __future__ import annotations

import re

from judge.mail.headers import SURROGATES

MAX_LINE = 10_000  # a longer line is cut to this many characters


_CHAR_MAP = {
    **{c: " " for c in (0xA0, 0x1680, 0x202F, 0x205F, 0x3000, *range(0x2000, 0x200B))},
    **{c: None for c in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0xAD, 0x200E, 0x200F, 0x180E)},
    **{c: None for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))},
    **{c: None for c in (*range(0x00, 0x09), *range(0x0E, 0x20), 0x7F, *range(0x80, 0xA0))},
    0x0B: "\n",
    0x0C: "\n",
    0x2028: "\n",
    0x2029: "\n",
}

_PGP_BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"

_ATTR_START = r"(?:On|Le|Am|El|Il|Op|Em|Den|På|W dniu|Dne|В)\s"
_ATTR_VERB = (
    r"(?:wrote|writes|a écrit|schrieb|escribió|ha scritto|schreef|escreveu|skrev|"
    r"napisał|napsal|написал)"
)
_ATTR_STRONG = re.compile(rf"{_ATTR_START}.*\b{_ATTR_VERB}\b[^:]{{0,120}}\s?:", re.I)
_ATTR_WEAK = re.compile(rf".{{1,200}}\s{_ATTR_VERB}\s?:", re.I)

_FORWARDED = re.compile(
    r"-{3,}\s*(?:Forwarded message|Weitergeleitete Nachricht|"
    r"Mensaje reenviado|Message transféré|Messaggio inoltrato|Doorgestuurd bericht|"
    r"Mensagem encaminhada|Videresendt meddelelse|Vidarebefordrat meddelande)\s*-{3,}|"
    r"Begin forwarded message:|Début du message réexpédié\s?:|"
    r"Anfang der weitergeleiteten Nachricht:|Inicio del mensaje reenviado:|"
    r"Inizio messaggio inoltrato:",
    re.I,
)
_ORIGINAL = re.compile(
    r"-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|"
    r"Messaggio originale|Oorspronkelijk bericht|Originalmeddelande|Alkuperäinen viesti|"
    r"Oprindelig meddelelse|Opprinnelig melding|Mensagem original)\s*-{2,}",
    re.I,
)
_UNDERSCORES = re.compile(r"_{10,}")
_CID = re.compile(r"\[cid:[^\]\s]*\]")
_HDR_FROM = re.compile(r"\*?(?:From|Von|De|Da|Van|Från|Fra|Od|От)\s?:\*?\s*\S", re.I)
_HDR_SENT = re.compile(
    r"\*?(?:Sent|Date|Gesendet|Datum|Envoyé|Enviado|Fecha|Inviato|Data|Verzonden|Skickat|"
    r"Sendt|Отправлено)\s?:",
    re.I,
)
_HDR_TO = re.compile(
    r"\*?(?:To|Cc|An|À|A|Para|Aan|Till|Til|Komu|Кому|Subject|Betreff|Objet|Asunto|Oggetto|"
    r"Onderwerp|Ämne|Emne|Assunto|Тема)\s?:",
    re.I,
)
_SIGNOFF = re.compile(
    r"Sent from my \S.{0,60}|"
    r"Sent from (?:Yahoo Mail|Outlook|Mail for Windows|Proton ?Mail|AOL|Gmail|Samsung)\b.{0,60}|"
    r"Sent with (?:Proton ?Mail|BlackBerry)\b.{0,60}|Get Outlook for (?:iOS|Android)\b.{0,80}|"
    r"Envoyé de mon \S.{0,40}|Von meinem \S.{0,40} gesendet\.?|Enviado desde mi \S.{0,40}|"
    r"Enviado do meu \S.{0,40}|Inviato da(?:l mio)? (?:iPhone|iPad|Android|smartphone)\b.{0,40}",
    re.I,
)


def clean_text(text: str, notes: list[str]) -> str:
    """The commands of `text`: invisible characters, PGP armour, quotes and sign-offs
    left out, long lines cut; what was done goes into `notes`."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_CHAR_MAP)
    text = SURROGATES.sub("\ufffd", text)
    lines = [line.rstrip() for line in text.split("\n")]
    lines = _pgp_signed(lines, notes)
    lines = _commands_only(lines, notes)
    # Sliced, not popped one by one from the front: a mail of 500,000 blank lines took
    # 40 s to pop (each pop moves every line after it).
    first = next((i for i, line in enumerate(lines) if line), len(lines))
    lines = lines[first:]
    while lines and not lines[-1]:
        lines.pop()
    for i, line in enumerate(lines):
        if len(line) > MAX_LINE:
            lines[i] = line[:MAX_LINE].rstrip()
            notes.append(f"cut a line longer than {MAX_LINE} characters")
    return "\n".join(lines)


def _pgp_signed(lines: list[str], notes: list[str]) -> list[str]:
    """Inline PGP: keep only the signed text, with its dash-escaping undone."""
    try:
        begin = lines.index(_PGP_BEGIN)
    except ValueError:
        return lines
    start = begin + 1
    while start < len(lines) and lines[start].strip():  # armor headers (Hash: SHA256)
        start += 1
    end = start
    while end < len(lines) and lines[end] != _PGP_SIGNATURE:
        end += 1
    notes.append("kept only the signed text")
    return [line[2:] if line.startswith("- ") else line for line in lines[start + 1 : end]]


def _commands_only(lines: list[str], notes: list[str]) -> list[str]:
    out: list[str] = []
    dropped = False  # lines were left out since the last line of text
    i = 0
    while i < len(lines):
        line = lines[i]
        text = line.strip()
        if line == "--":  # "-- " with its trailing space stripped, or "--" alone
            notes.append("stopped at the signature")
            break
        if _FORWARDED.fullmatch(text):
            notes.append("ignored the forwarded original message")
            break
        if _ORIGINAL.fullmatch(text) or _header_block_at(lines, i):
            notes.append("ignored quoted text")
            break
        if _UNDERSCORES.fullmatch(text) and _header_block_at(lines, i + 1):
            notes.append("ignored quoted text")
            break
        if text.startswith(">"):
            notes.append("ignored quoted text")
            dropped = True
            i += 1
            continue
        taken = _attribution(lines, i)
        if taken:
            notes.append("ignored quoted text")
            dropped = True
            i += taken
            continue
        if _SIGNOFF.fullmatch(text):
            notes.append(f'dropped the sign-off "{text}"')
            dropped = True
            i += 1
            continue
        if _CID.fullmatch(text):
            notes.append("dropped an inline image placeholder")
            i += 1
            continue
        if not line and dropped and out and not out[-1]:
            i += 1  # one blank line where quoted text was is enough
            continue
        dropped = dropped and not line
        out.append(line)
        i += 1
    return out


def _header_block_at(lines: list[str], i: int) -> bool:
    """An Outlook-style header block (From:, Sent:, To:, Subject:) starts at line i."""
    if i >= len(lines) or not _HDR_FROM.match(lines[i]):
        return False
    following = lines[i + 1 : i + 6]
    return any(_HDR_SENT.match(x) for x in following) and any(_HDR_TO.match(x) for x in following)


def _attribution(lines: list[str], i: int) -> int:
    """How many lines an attribution ("On <date>, <name> wrote:") starting at line i takes."""
    first = lines[i].strip()
    if not first or len(first) > 300:
        return 0
    joined = first
    for taken in (1, 2, 3):
        if taken > 1:
            if i + taken - 1 >= len(lines) or not lines[i + taken - 1].strip():
                return 0
            joined += " " + lines[i + taken - 1].strip()
        if joined.endswith(":"):
            if _ATTR_STRONG.fullmatch(joined) and re.search(r"[\d@]", joined):
                return taken
            if _ATTR_WEAK.fullmatch(joined) and _quote_follows(lines, i + taken):
                return taken
            return 0
        if taken == 1 and not re.match(_ATTR_START, first, re.I):
            return 0  # only the "On ..." forms are wrapped over lines
    return 0


def _quote_follows(lines: list[str], i: int) -> bool:
    # By index, not over lines[i:]: a copy of the rest at every line of a mail of
    # "Bob wrote:" lines made reading it quadratic (15 s for a mail at the size limit).
    for j in range(i, len(lines)):
        if lines[j].strip():
            return lines[j].lstrip().startswith(">")
    return True
