"""Rules engines: pure Python, no Flask.  See ``base.Game`` for the contract."""
