"""Records graphql-core 3.3.2's verdict on each SDL case of this folder, in graphql-js's quoting.

For every `<case>.graphql` here, `expected.json` holds:
  sdl_errors     what `validate_sdl` reports (the SDL rules, owned by document validation)
  schema_errors  what `validate_schema` reports on `build_ast_schema(..., assume_valid_sdl=True)`
  printed        `print_schema` of that schema, when it is valid (printing keeps only what
                 the schema holds: an invalid reference, such as a union member that is not
                 an object type, is not part of our typed schema)
(the last two only when there are no SDL errors).

Regenerate after adding or changing a case:
  pip install graphql-core==3.3.2
  python3 Tests/GraphQLTests/Corpus/schema/oracle.py
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import jsstyle  # noqa: E402

jsstyle.install()

from graphql import build_ast_schema, parse, print_schema, validate_schema  # noqa: E402
from graphql.validation.validate import validate_sdl  # noqa: E402

assert __import__("graphql").__version__ == "3.3.2", "the oracle is graphql-core 3.3.2"

here = pathlib.Path(__file__).parent
results = {}
for path in sorted(here.glob("*.graphql")):
    document = parse(path.read_text())
    result = {"sdl_errors": [jsstyle.error(e) for e in validate_sdl(document)]}
    if not result["sdl_errors"]:
        schema = build_ast_schema(document, assume_valid_sdl=True)
        result["schema_errors"] = [jsstyle.error(e) for e in validate_schema(schema)]
        if not result["schema_errors"]:
            result["printed"] = print_schema(schema)
    results[path.stem] = result

(here / "expected.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
print(f"{len(results)} cases")
