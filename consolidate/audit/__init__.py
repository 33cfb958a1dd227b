"""The offline memory auditor: verify what memory says against the code and git."""

from .auditor import audit, audit_tree

__all__ = ["audit", "audit_tree"]
