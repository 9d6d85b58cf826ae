"""No function outside the tests is longer than 80 lines (C++ and Python): each reads at once."""

import ast
import re
from pathlib import Path

from test_layers import LAYERS

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 80
CPP_FOLDERS = [*LAYERS, "fuzz"]
NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "do", "else", "try", "namespace", "class", "struct", "enum",
                 "union", "extern", "return"}
# Comments, string and character literals, each blanked out but for its newlines.
LITERALS = re.compile(r'//[^\n]*|/\*.*?\*/|R"\((?:.|\n)*?\)"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def code_only(text: str) -> str:
    text = LITERALS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))


def is_function_header(header: str) -> bool:
    words = header.split()
    if not words or ")" not in header or words[0] in NOT_FUNCTIONS:
        return False
    before_call = header.split("(", 1)[0]
    return "=" not in before_call.replace("operator=", "").replace("operator==", "") and "[" not in before_call


def cpp_functions(text: str):
    """(first line, last line) of each function body in C++ source, lambdas and nested blocks inside it included."""
    code = code_only(text)
    stack: list[tuple[bool, int]] = []
    header_start, line = 0, 1
    for i, ch in enumerate(code):
        if ch == "\n":
            line += 1
        elif ch == "{":
            header = code[header_start:i]
            first = line - header.lstrip().count("\n")
            inside = any(is_function for is_function, _ in stack)
            stack.append((not inside and is_function_header(header), first))
            header_start = i + 1
        elif ch == "}":
            is_function, first = stack.pop() if stack else (False, line)
            if is_function:
                yield first, line
            header_start = i + 1
        elif ch == ";":
            header_start = i + 1


def long_functions() -> list[str]:
    found = []
    for folder in CPP_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".h", ".cc") and not path.name.endswith("_test.cc"):
                for first, last in cpp_functions(path.read_text(encoding="utf-8")):
                    if last - first + 1 > MAX_LINES:
                        found.append(f"{path.relative_to(ROOT)}:{first}: {last - first + 1} lines")
    for path in sorted((ROOT / "python").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_LINES:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name}, {length} lines")
    return found


def test_the_scanner_measures_functions_and_nothing_else():
    source = """
// a comment { with a brace
namespace x {
struct S {
  int f(int a) const {
    if (a) { return 1; }
    auto g = [&](int b) { return b; };
    return g(a);
  }
};
const auto table = [] { return 2; }();
int h() { return "}"[0]; }
}  // namespace x
"""
    assert list(cpp_functions(source)) == [(5, 9), (12, 12)]


def test_no_function_is_longer_than_80_lines():
    found = long_functions()
    assert not found, "functions longer than 80 lines:\n" + "\n".join(found)
