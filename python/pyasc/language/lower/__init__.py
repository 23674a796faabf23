"""The lowerings: how each call a kernel makes becomes IR, one module per API
family, named like the runtime units under src/compiler/rt. Modules here
import only the layers below (:mod:`pyasc.language.names`,
:mod:`pyasc.language.ir` and the language's own names); :mod:`.core` takes a
call from the code generator to the lowering that handles it."""
