-- Modules loaded after the Tensor core, each adding one family of functions
-- to torch and the tensor classes.  A new family is one more line here.
return {
   'torch.metatables',     -- __index__, __newindex__, __len__, __tostring__ of Tensor and Storage
   'torch.maths',          -- maths reference: construction, element-wise, BLAS, reductions, operators, logical
   'torch.random',         -- torch.Generator (Generator.lua) and the random functions
   'torch.multinomialAlias', -- multinomialAliasSetup, multinomialAlias (Walker's alias method)
   'torch.linalg',         -- LAPACK: gesv, trtrs, potrf, ..., svd, qr
   'torch.conv',           -- conv2, xcorr2, conv3, xcorr3
   'torch.selection',      -- index, indexCopy/Add/Fill, gather, scatter, masked*, nonzero
   'torch.apply',          -- apply, map, map2, split, chunk, repeatTensor
   'torch.threads',        -- setnumthreads, getnumthreads
   'torch.ffi',            -- t:cdata(), s:cdata(): Torch7's C structures for FFI code
   'torch.CmdLine',
   'torch.Timer',
   'torch.system',         -- tic, toc, getnumcores, isatty, packageLuaPath, include
   'torch.File',           -- File, DiskFile, MemoryFile, PipeFile
   'torch.serialization',  -- save, load, serialize, deserialize
   'torch.Tester',         -- Tester and TestSuite
   'torch.maths.argcheck', -- the original's argument checks, for the maths functions defined above
   'torch.halfmethods',    -- HalfTensor keeps the methods Torch7's had (no maths), last
}
