"""Where instancetypes, preferences and the objects they are resolved with come from."""

from .index import (
    CATALOG_KINDS,
    CLUSTER_INSTANCETYPE,
    CLUSTER_KINDS,
    CLUSTER_PREFERENCE,
    INDEXED_KINDS,
    INSTANCETYPE,
    PREFERENCE,
    Catalog,
    Entry,
)

__all__ = [
    "CATALOG_KINDS",
    "CLUSTER_INSTANCETYPE",
    "CLUSTER_KINDS",
    "CLUSTER_PREFERENCE",
    "INDEXED_KINDS",
    "INSTANCETYPE",
    "PREFERENCE",
    "Catalog",
    "Entry",
]
