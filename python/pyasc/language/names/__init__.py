"""The kernel language's names: enums, parameter structs, field tables and the
code tables the IR shares with the C runtime. The bottom layer of the front
end: modules here import only :mod:`pyasc.language.core` and each other."""
