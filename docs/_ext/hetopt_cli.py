"""Sphinx directive ``hetopt-cli``: the command-line reference, generated from the argparse parser.

``.. hetopt-cli:: hetopt.cli:build_parser`` imports the function, builds the parser and renders
its usage and options, then one section per sub-command (``hetopt NAME``, with the anchor
``hetopt-NAME``): its help, its usage line and a table of its arguments (name and metavar, what
it does, the choices and the default).
"""

from __future__ import annotations

import argparse
import importlib

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def _para(text: str, *, literal: bool = False) -> nodes.paragraph:
    return nodes.paragraph("", "", nodes.literal(text, text) if literal else nodes.Text(text))


def _arguments(parser: argparse.ArgumentParser) -> nodes.table | None:
    """One row per argument (help actions left out): the names, the description, choices, default."""
    rows = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        if action.option_strings:
            takes = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
            names = ", ".join(f"{flag}{takes}" for flag in action.option_strings)
        else:
            names = action.metavar or action.dest
        what = [_para(action.help or "")]
        if action.choices:
            what.append(_para("one of: " + ", ".join(map(str, action.choices))))
        if action.nargs == "?" and not action.option_strings:
            what.append(_para("optional"))
        if action.default not in (None, False, argparse.SUPPRESS) and action.nargs != 0:
            what.append(_para(f"default: {action.default}"))
        rows.append((names, what))
    if not rows:
        return None
    table = nodes.table(classes=["hetopt-cli-arguments", "colwidths-given"])
    group = nodes.tgroup(cols=2)
    table += group
    group += nodes.colspec(colwidth=35)
    group += nodes.colspec(colwidth=65)
    head = nodes.thead()
    group += head
    row = nodes.row()
    row += nodes.entry("", _para("argument"))
    row += nodes.entry("", _para("what it does"))
    head += row
    body = nodes.tbody()
    group += body
    for names, what in rows:
        row = nodes.row()
        row += nodes.entry("", _para(names, literal=True))
        entry = nodes.entry()
        entry.extend(what)
        row += entry
        body += row
    return table


def _usage(parser: argparse.ArgumentParser) -> nodes.literal_block:
    text = parser.format_usage().strip()
    return nodes.literal_block(text, text, language="text")


class CliDirective(SphinxDirective):
    """``hetopt-cli:: module:function``: the reference of the parser ``function()`` returns."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        target = self.arguments[0]
        module, _, func = target.partition(":")
        if not func:
            raise self.error(f"hetopt-cli: argument is {target!r}; expected 'module:function'")
        mod = importlib.import_module(module)
        self.env.note_dependency(mod.__file__)
        parser = getattr(mod, func)()
        out: list[nodes.Node] = []
        if parser.description:
            out.append(_para(parser.description))
        out.append(_usage(parser))
        table = _arguments(parser)
        if table is not None:
            out.append(table)
        for action in parser._actions:
            if not isinstance(action, argparse._SubParsersAction):
                continue
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                sec = nodes.section(ids=[f"{parser.prog}-{name}"], names=[f"{parser.prog} {name}"])
                sec += nodes.title("", "", nodes.literal(f"{parser.prog} {name}", f"{parser.prog} {name}"))
                if helps.get(name) or sub.description:
                    sec += _para(sub.description or helps[name])
                sec += _usage(sub)
                table = _arguments(sub)
                if table is not None:
                    sec += table
                out.append(sec)
        return out


def setup(app: Sphinx) -> dict:
    app.add_directive("hetopt-cli", CliDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
