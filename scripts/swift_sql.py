"""Storykeep's SQL read from its Swift sources, for the benchmarks that run the same statements
(scripts/bench-peer.py): a statement is named by its file and its name there, `entriesPage`, or a
dotted path into a value built of literals, `failuresOfPerson.lock`. A string literal is read as
Swift reads it: a multi-line literal loses the indentation of its closing quotes, a backslash at a
line's end joins it to the next, and an interpolation of another statement of the file,
`\\(daySlots)` or `\\(Self.daySlots)`, is that statement's text.

    statement("Storykeep/Journals/JournalStatements.swift", "createEntry")
"""
import functools, pathlib, re

SOURCES = pathlib.Path(__file__).resolve().parent.parent / "Sources"
ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}


@functools.cache
def statement(file, name):
    """The SQL text of `name` in Sources/`file`."""
    text = (SOURCES / file).read_text()
    position = 0
    for index, part in enumerate(name.split(".")):
        pattern = rf"\bstatic (?:let|var) {part}\b[^=]*=" if index == 0 else rf"\b{part}:"
        found = re.compile(pattern).search(text, position)
        if found is None:
            raise KeyError(f"{file} has no {name}")
        position = found.end()
    literal = re.compile(r'\s*(?:[A-Za-z]+\()?\s*("""|")').match(text, position)
    if literal is None:
        raise ValueError(f"{file}: {name} is not a string literal")
    return _resolve(file, _read(text, literal.end(1), multiline=literal.group(1) == '"""'))


def _read(text, start, multiline):
    """The raw body of the literal that starts at `start`, its indentation removed."""
    if not multiline:
        end = re.compile(r'(?<!\\)(?:\\\\)*"').search(text, start)
        return text[start:end.end() - 1]
    close = re.compile(r'\n([ \t]*)"""').search(text, start)
    indent = len(close.group(1))
    lines = text[start:close.start()].split("\n")[1:]
    return "\n".join(line[indent:] for line in lines)


def _resolve(file, raw):
    """Swift's escapes and line continuations, and the file's statements interpolated."""
    raw = re.sub(r"(?<!\\)\\\n", "", raw)
    out, index = [], 0
    while index < len(raw):
        char = raw[index]
        if char != "\\":
            out.append(char)
            index += 1
            continue
        following = raw[index + 1]
        if following == "(":
            end = raw.index(")", index)
            out.append(statement(file, raw[index + 2:end].removeprefix("Self.")))
            index = end + 1
        else:
            out.append(ESCAPES[following])
            index += 2
    return "".join(out)
