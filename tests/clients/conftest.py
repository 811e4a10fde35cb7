# play_python.py imports the generated client, which exists only inside the tests'
# temp dirs: it is run as a program there, never imported by --doctest-modules.
collect_ignore = ["play_python.py"]
