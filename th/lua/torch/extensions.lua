-- Modules loaded after the Tensor core, each adding one family of functions
-- to torch and the tensor classes.  A new family is one more line here.
return {
   'torch.maths',          -- maths reference: construction, element-wise, BLAS, reductions, operators, logical
   'torch.random',         -- the Mersenne Twister generator and the random functions
   'torch.linalg',         -- LAPACK: gesv, trtrs, potrf, ..., svd, qr
   'torch.conv',           -- conv2, xcorr2, conv3, xcorr3
   'torch.selection',      -- index, indexCopy/Add/Fill, gather, scatter, masked*, nonzero
   'torch.apply',          -- apply, map, map2, split, chunk, repeatTensor
   'torch.ffi',            -- t:cdata(), s:cdata(): Torch7's C structures for FFI code
   'torch.CmdLine',
   'torch.Timer',
   'torch.File',           -- File, DiskFile, MemoryFile, PipeFile
   'torch.serialization',  -- save, load, serialize, deserialize
   'torch.Tester',         -- Tester and TestSuite
   'torch.threads',        -- setnumthreads, getnumthreads
}
