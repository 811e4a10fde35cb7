# play_python.py and types_python.py import the generated client, which exists only inside
# the tests' temp dirs: they are run as programs there, never imported by --doctest-modules.
collect_ignore = ["play_python.py", "types_python.py"]
