"""The shortcuts: a built-in policy's answers computed from the engine's table, without a view
or choice rows, one module per policy (docs/architecture.md, "Policy dispatch"). The policies
stay the definition: the reference engine asks them, and tests tie each shortcut to its policy.
:mod:`.greedy` holds greedy's answers."""
