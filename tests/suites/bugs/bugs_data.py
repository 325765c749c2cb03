"""Reader for data in the BUGS list format: list(name = value, ...).

A value is a number, NA, c(...) of numbers (a vector), a range a:b, or
structure(.Data = c(...), .Dim = c(d1, d2, ...)). In a BUGS data file the
.Data of a structure are in row-major order (the last index varies fastest),
unlike R, where the same text fills the array column by column. `order="C"`
(the default) reads them the BUGS way; `order="F"` the R way, for files
written for R (Stan's .data.R).

The result is a dict of Python values: a number, None for NA, or nested
lists (row-major), ready for json.dump in Stan's layout.
"""

import re

_TOKEN = re.compile(r"\s*(?:(?P<num>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                    r"|(?P<name>[A-Za-z_.][A-Za-z0-9_.]*)|(?P<punct>[(),=:]))")


def _tokens(text):
    text = re.sub(r"#[^\n]*", "", text)
    pos = 0
    out = []
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("cannot read data near: " + text[pos:pos + 40])
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text, order):
        self.toks = _tokens(text)
        self.i = 0
        self.order = order

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok[1] != want:
            raise ValueError("expected %r, found %r" % (want, tok[1]))
        self.i += 1
        return tok

    # value -> number | NA | c(...) | structure(...) | list(...) | number ':' number
    def value(self):
        kind, text = self.peek()
        if kind == "num":
            self.take()
            if self.peek()[1] == ":":
                self.take()
                hi = self.number(self.take())
                return list(range(self.number((kind, text)), hi + 1))
            return self.number((kind, text))
        if text == "NA":
            self.take()
            return None
        if text == "c":
            return self.vector()
        if text == "structure":
            return self.structure()
        if text == "list":
            return self.named_list()
        raise ValueError("unexpected %r in data" % text)

    @staticmethod
    def number(tok):
        text = tok[1]
        if re.fullmatch(r"[-+]?\d+", text):
            return int(text)
        value = float(text)
        return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value

    # vector -> 'c' '(' value {',' value} ')'
    def vector(self):
        self.take("c")
        self.take("(")
        items = []
        while self.peek()[1] != ")":
            item = self.value()
            items.extend(item if isinstance(item, list) else [item])
            if self.peek()[1] == ",":
                self.take()
        self.take(")")
        return items

    # structure -> 'structure' '(' '.Data' '=' vector ',' '.Dim' '=' vector ')'
    def structure(self):
        self.take("structure")
        self.take("(")
        fields = {}
        while self.peek()[1] != ")":
            name = self.take()[1]
            self.take("=")
            fields[name] = self.value()
            if self.peek()[1] == ",":
                self.take()
        self.take(")")
        data, dims = fields[".Data"], fields[".Dim"]
        return reshape(data, dims, self.order)

    # named_list -> 'list' '(' name '=' value {',' name '=' value} ')'
    def named_list(self):
        self.take("list")
        self.take("(")
        out = {}
        while self.peek()[1] != ")":
            name = self.take()[1]
            self.take("=")
            out[name] = self.value()
            if self.peek()[1] == ",":
                self.take()
        self.take(")")
        return out


def reshape(flat, dims, order="C"):
    """Nested row-major lists of shape dims from flat values in `order`."""
    size = 1
    for d in dims:
        size *= d
    if len(flat) != size:
        raise ValueError("%d values for dimensions %s" % (len(flat), dims))

    def at(index):
        if order == "C":
            k = 0
            for i, d in zip(index, dims):
                k = k * d + i
        else:
            k = 0
            for i, d in zip(reversed(index), reversed(dims)):
                k = k * d + i
        return flat[k]

    def build(prefix):
        if len(prefix) == len(dims):
            return at(prefix)
        return [build(prefix + [i]) for i in range(dims[len(prefix)])]

    return build([])


def read_bugs_list(text, order="C"):
    """All variables of one list(...) of BUGS data."""
    parser = _Parser(text[text.index("list"):], order)
    return parser.named_list()
