"""The front end's intermediate layer, between the names (:mod:`pyasc.language.names`)
and the lowerings: the values a kernel's code generator works with
(:mod:`.values`), how a lowering reads its arguments (:mod:`.args`), and
the registry that finds a name's lowering (:mod:`.registry`)."""
