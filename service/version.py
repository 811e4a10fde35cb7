"""The version of the HTTP contract (``info.version`` of ``openapi.yaml``).

Semantic versioning (docs/api.md, "Versions and compatibility"): the major
moves on a breaking change of the contract, the minor on an addition, the patch
on a fix that changes no request or answer.  ``pyproject.toml``'s ``version`` is
the same number (``tests/compat`` holds both), and ``CHANGELOG.md`` has a
section for each release.  The contract of the last release is kept in
``contract/`` (``make contract-baseline``); ``tests/compat`` fails the suite
on a breaking change unless this major moved.
"""

CONTRACT_VERSION = "2.1.0"
