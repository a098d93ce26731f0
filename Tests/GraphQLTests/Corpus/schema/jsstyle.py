"""Make graphql-core 3.3.2 speak like graphql-js, for the differential corpus.

graphql-core quotes names with ' where graphql-js uses ", and shows values in error messages
with Python's repr (None, True, {'a': 1}) where graphql-js uses its `inspect` (null, true,
{ a: 1 }). `install()` replaces graphql-core's `inspect` with graphql-js's everywhere it was
imported; `message()` turns the remaining '...' quotes into "..." and None into null.
"""

import json
import math
import re
import sys

from graphql.pyutils import Undefined
from graphql.pyutils import inspect as core_inspect

MAX_ARRAY_LENGTH = 10
MAX_RECURSIVE_DEPTH = 2


def js_number(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        exponent = int(exponent)
        if -7 < exponent < 21:
            return format(value, "f").rstrip("0").rstrip(".")
        if mantissa.endswith(".0"):
            mantissa = mantissa[:-2]
        return f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"
    return text


def js_inspect(value, depth=0):
    if value is None:
        return "null"
    if value is Undefined:
        return "undefined"
    if isinstance(value, (bool, int, float)):
        return js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        if depth >= MAX_RECURSIVE_DEPTH:
            return "[Array]"
        items = [js_inspect(item, depth + 1) for item in value[:MAX_ARRAY_LENGTH]]
        remaining = len(value) - MAX_ARRAY_LENGTH
        if remaining == 1:
            items.append("... 1 more item")
        elif remaining > 1:
            items.append(f"... {remaining} more items")
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        if depth >= MAX_RECURSIVE_DEPTH:
            return "[Object]"
        return "{ " + ", ".join(f"{k}: {js_inspect(v, depth + 1)}" for k, v in value.items()) + " }"
    return str(value)


def install():
    original = core_inspect
    import graphql.pyutils.inspect as module

    module.inspect = js_inspect
    for name, module in list(sys.modules.items()):
        if name.startswith("graphql") and getattr(module, "inspect", None) is original:
            module.inspect = js_inspect


QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def message(text):
    text = QUOTED.sub(lambda m: '"' + m.group(1) + '"', text)
    return text.replace(" not to be None.", " not to be null.")


def error(err):
    result = {"message": message(err.message)}
    if err.locations:
        result["locations"] = [{"line": loc.line, "column": loc.column} for loc in err.locations]
    if err.path:
        result["path"] = list(err.path)
    return result
