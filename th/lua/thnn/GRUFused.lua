-- GRUFused: the original's THNN had this fused recurrent kernel for CUDA only; on
-- CPU tensors it failed an assertion, and so does th, with the same message.
local fail = require('torch.internal').fail
local K = {}

local function cpu()
   fail("Assertion `false' failed. Not implemented for CPU")
end

K.GRUFused_updateOutput = cpu
K.GRUFused_updateGradInput = cpu

return K
