"""A choice's label as a member sees it (see :mod:`tables.rules.choices`): its steps joined by
arrows, every label of one message told apart within a component's length limit.

A chain too long for the limit keeps its first and last steps and the steps that tell
it from the choices it would otherwise look like (``A → … → <the differing step> → … →
Z``); a step that differs only in its last words is shown from where it differs
(``…Shoot → Lv3``).  When that still reads the same as another label (long steps
that all differ), the differing steps come first and the rest after them
(``<differing step> · A → …``), so the difference is never what the limit cuts.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.i18n import t

ELLIPSIS = "…"
#: the widths a shortened label tries for its steps: (any other step, a step that differs)
CAPS: tuple[tuple[int | None, int | None], ...] = (
    (None, None),
    (32, None),
    (20, None),
    (12, None),
    (12, 40),
    (8, 28),
    (6, 18),
)


@dataclass
class _Label:
    prefix: str  # kept whole: a choice's number and where it ends
    parts: list[str]  # every step's full label
    first: str  # the label when it fits and is unique
    warn: str | None  # the words of a self-destroying choice
    full: list[str]  # every step's full label, details included (when ``parts`` are heads)


def _unique(items: list[_Label], limit: int, locale: str) -> list[str]:
    """The labels of ``items``: each its ``first`` form when that fits and is
    unique, else its chain shortened to the steps that tell it apart."""
    keep = [{0, len(it.parts) - 1} for it in items]
    must: list[set[int]] = [set() for _ in items]

    def rivals(k: int) -> list[list[str]]:
        return [o.parts for j, o in enumerate(items) if j != k and o.prefix == items[k].prefix]

    def label(k: int, short: bool) -> str:
        it = items[k]
        body = it.first if not short else _shortened(it, keep[k], must[k], limit, rivals(k))
        return _warned(it, body, limit, locale)

    short = [False] * len(items)
    texts = [label(k, False) for k in range(len(items))]
    for k, it in enumerate(items):
        if texts[k] != _warned(it, it.first, None, locale):
            short[k] = True  # too long as it was: shortened, keeping what tells it from its look-alikes
            alike = [
                o.parts
                for j, o in enumerate(items)
                if j != k and o.prefix == it.prefix and o.parts[:1] == it.parts[:1] and o.parts[-1:] == it.parts[-1:]
            ]
            must[k] = {i for i in _differing(it.parts, alike) if 0 < i < len(it.parts) - 1}
            keep[k] |= must[k]
            texts[k] = label(k, True)
    for _ in range(len(items) + 2):
        clashes = _clashes(texts)
        if not clashes:
            return texts
        grew = False
        for group in clashes:
            for k in group:
                others = [items[j].parts for j in group if j != k]
                diff = _differing(items[k].parts, others)
                new = [i for i in diff if i not in must[k]]
                if new or not short[k]:
                    must[k] |= set(diff)
                    keep[k] |= set(diff)
                    short[k] = True
                    grew = True
                texts[k] = label(k, True)
        if not grew:
            # the steps' heads alike: their details tell them apart
            detailed = [k for g in clashes for k in g if items[k].parts != items[k].full]
            if not detailed:
                break
            for k in detailed:
                items[k].parts = items[k].full
                keep[k], must[k] = {0, len(items[k].parts) - 1}, set()
                texts[k] = label(k, True)
    # still the same words within the limit: the steps that differ first, the rest after them
    for group in _clashes(texts):
        for k in group:
            others = [items[j].parts for j in group if j != k]
            if items[k].parts not in others:
                texts[k] = _warned(items[k], _difference_first(items[k], others, limit), limit, locale)
    # the same words after all (two steps with one label): numbered apart
    for group in _clashes(texts):
        for n, k in enumerate(group, start=1):
            texts[k] = _clip(texts[k], limit - len(f" ({n})")) + f" ({n})"
    return texts


def _warned(it: _Label, body: str, limit: int | None, locale: str) -> str:
    if it.warn:
        body = t("core.ui.self_harm", locale, what=it.warn, label=body)
    return _clip(body, limit)


def _clashes(texts: list[str]) -> list[list[int]]:
    seen: dict[str, list[int]] = {}
    for k, x in enumerate(texts):
        seen.setdefault(x, []).append(k)
    return [g for g in seen.values() if len(g) > 1]


def _differing(parts: list[str], others: list[list[str]]) -> list[int]:
    """The steps of ``parts`` that tell it apart from each of ``others``: for
    each, the first step where they differ."""
    out = []
    for other in others:
        for i, p in enumerate(parts):
            if i >= len(other) or other[i] != p:
                out.append(i)
                break
        else:
            if parts:
                out.append(len(parts) - 1)
    return sorted(set(out))


def _step(text: str, cap: int | None, rivals: list[str]) -> str:
    """A step clipped to ``cap``; one that differs from a rival (the same step of a
    look-alike) only past the cap is shown from the word where it differs."""
    if cap is None or len(text) <= cap:
        return text
    starts = [_common(text, r) for r in rivals if r != text]
    where = min(starts, default=0)
    if where < cap - 1:
        return _clip(text, cap)
    start = text.rfind(" ", 0, where) + 1
    tail = text[start:]
    room = cap - len(tail) - 2  # what is left for the step's first words ("Attack… (2 HP)")
    if room < 3:
        return _clip(ELLIPSIS + tail, cap)
    return f"{text[:room].rstrip()}{ELLIPSIS} {tail}"


def _common(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def _shortened(it: _Label, keep: set[int], must: set[int], limit: int, rivals: list[list[str]]) -> str:
    """``it``'s chain with only the ``keep`` steps shown (the rest as "…"),
    fitted into ``limit``: the steps that tell it apart (``must``) are cut last."""
    room = limit - (len(it.prefix) + 3 if it.prefix else 0)
    body = ""
    for cap_end, cap_must in CAPS:
        shown = []
        last = -1
        for i, p in enumerate(it.parts):
            if i not in keep:
                continue
            if i > last + 1:
                shown.append(ELLIPSIS)
            cap = cap_must if i in must else cap_end
            shown.append(_step(p, cap, [r[i] for r in rivals if i < len(r)]))
            last = i
        body = " → ".join(shown)
        if len(body) <= room:
            break
    return " · ".join(x for x in (it.prefix, body) if x)


def _difference_first(it: _Label, others: list[list[str]], limit: int) -> str:
    """``it``'s label led by the steps that tell it from ``others`` (each shown from
    where it differs), then its chain, shortened, in what room is left."""
    room = limit - (len(it.prefix) + 3 if it.prefix else 0)
    diff = _differing(it.parts, others)
    lead = []
    for i in diff:
        rivals = [o[i] for o in others if i < len(o)]
        lead.append(_step(it.parts[i], max(12, room // max(1, len(diff)) - 3), rivals))
    head = " · ".join(lead)
    rest = room - len(head) - 3
    tail = _shortened(_Label("", it.parts, "", None, it.parts), {0, len(it.parts) - 1}, set(), rest, [])
    body = f"{head} · {_clip(tail, rest)}" if rest > 8 else head
    return " · ".join(x for x in (it.prefix, _clip(body, room)) if x)


def _clip(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + ELLIPSIS


def _heads(parts: list[str]) -> list[str]:
    """Each step's head: its label's text before " · " (a direction, not the space)."""
    return [p.split(" · ", 1)[0] for p in parts]


def _path(parts: list[str]) -> tuple[str, str]:
    """A chain's steps, short: each step's head (a label's text before " · "),
    repeats counted; and the last step's detail."""
    heads = [p.split(" · ", 1)[0] for p in parts]
    tail = parts[-1].split(" · ", 1)[1] if " · " in parts[-1] else ""
    grouped: list[list] = []
    for h in heads:
        if grouped and grouped[-1][0] == h:
            grouped[-1][1] += 1
        else:
            grouped.append([h, 1])
    return " → ".join(h if n == 1 else f"{h} ×{n}" for h, n in grouped), tail


def _run_label(parts: list[str]) -> str:
    """A run's steps, short, with only the last step's detail ("front-left ×2 →
    forward · face-down hazard!")."""
    path, tail = _path(parts)
    return f"{path} · {tail}" if tail else path
