"""The inputs layer: sources in, documents, catalog, cluster configuration, problems and notices out."""

from .exclude import excluded
from .gather import JUDGE_ALL, JUDGE_NONE, JUDGE_USED, NOT_AN_OBJECT, Inputs, Request, gather
from .provenance import Provenances
from .sources import STDIN, STDIN_NAME, Reader, Source, Text

__all__ = ["JUDGE_ALL", "JUDGE_NONE", "JUDGE_USED", "NOT_AN_OBJECT", "STDIN", "STDIN_NAME", "Inputs", "Provenances",
           "Reader", "Request", "Source", "Text", "excluded", "gather"]
