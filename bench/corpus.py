"""Deterministic benchmark corpora (fixed seed, no downloads).

``prose(size)``: multilingual prose with a link or email address every
300–500 characters; ``adversarial(name, size)``: hostile shapes.
"""

from __future__ import annotations

import random

WORDS = {
    "latin": "the quick brown fox jumps over lazy dogs while reading about Dvořák and Øresund café naïve".split(),
    "cyrillic": "съешь же ещё этих мягких французских булок да выпей чаю Москва".split(),
    "greek": "ξεσκεπάζω την ψυχοφθόρα βδελυγμία Αθήνα καλημέρα".split(),
    "arabic": "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر".split(),
    "hebrew": "דג סקרן שט בים מאוכזב ולפתע מצא חברה".split(),
    "devanagari": "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले".split(),
    "thai": ["เป็นมนุษย์สุดประเสริฐเลิศคุณค่า", "กว่าบรรดาฝูงสัตว์เดรัจฉาน"],
    "cjk": ["我能吞下玻璃而不伤身体", "いろはにほへとちりぬるを", "わかよたれそつねならむ"],
}

LINKS = [
    "https://ja.wikipedia.org/wiki/アルベルト・アインシュタイン",
    "https://en.wikipedia.org/wiki/Antonín_Dvořák",
    "example.com/path/to/page?q=1&r=2#frag",
    "www.bücher.de/straße",
    "пример.рф/страница",
    "https://example.org/α(β)γ",
    "jürgen.müller@beispiel.de",
    "mailto:σωκράτης@example.gr",
    "http://localhost:8080/api/v1",
    "https://hi.wikipedia.org/wiki/महात्मा_गांधी",
    "例子.中国/页面",
    "https://example.com/%E3%82%A2%E3%83%AB",
]
AFTER = [" ", ". ", ", ", ") ", "」", "! ", "。", "? ", "…\n"]
BEFORE = [" ", " (", "「", " «", " "]


def prose(size: int, seed: int = 58, scripts: tuple[str, ...] = tuple(WORDS)) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    next_link = rng.randint(300, 500)
    while total < size:
        words = WORDS[rng.choice(scripts)]
        chunk = " ".join(rng.choice(words) for _ in range(rng.randint(3, 9))) + rng.choice([". ", ", ", " "])
        parts.append(chunk)
        total += len(chunk)
        if total >= next_link:
            link = rng.choice(BEFORE) + rng.choice(LINKS) + rng.choice(AFTER)
            parts.append(link)
            total += len(link)
            next_link = total + rng.randint(300, 500)
    return "".join(parts)[:size]


def ascii_prose(size: int, seed: int = 58) -> str:
    return prose(size, seed, scripts=("latin",)).encode("ascii", "replace").decode("ascii")


ADVERSARIAL = {
    "a.a.a.": lambda n: ("a." * (n // 2 + 1))[:n],
    "((((": lambda n: "example.com/" + "(" * n,
    "....": lambda n: "example.com/a" + "." * n,
    "@@@@": lambda n: "@" * n,
    "http:// repeated": lambda n: ("http://" * (n // 7 + 1))[:n],
    "single token": lambda n: "https://example.com/" + "a" * n,
    "single dotted token": lambda n: ("ab1." * (n // 4 + 1))[:n] + "com",
    "x@ repeated": lambda n: ("x@" * (n // 2 + 1))[:n] + "example.com",
    "nested brackets 1e5": lambda n: ("example.com/" + "(" * 100_000 + " ") * (n // 100_013 + 1),
    # URLs passed over whole (D53), with no space for megabytes
    "userinfo URLs, no space": lambda n: ("http://u@x.co/a)" * (n // 16 + 1))[:n],
    "other schemes, no space": lambda n: ("a://b.co)" * (n // 9 + 1))[:n],
}

# Inputs where nearly every few characters are a candidate that Python must
# look at (a label separator before a label, an "@" before a domain).  Their
# cost per MB is that of the candidates, not of the rules: the target is that
# a rule's shape costs no more than plain candidates of the same density
# ("a.zz " repeated), and stays linear.  (Bringing that cost down to a few
# times prose is issue 14's.)
DENSE = {
    "plain candidates, a.zz repeated (reference)": lambda n: ("a.zz " * (n // 5 + 1))[:n],
    "scheme-glued emails (D53)": lambda n: ("sip:a@b.com:" * (n // 12 + 1))[:n],
    "CJK clauses and ASCII labels (D22)": lambda n: ("谢谢。a.zz。" * (n // 8 + 1))[:n],
    "glued names (D51)": lambda n: ("a_b.zz " * (n // 7 + 1))[:n],
}
