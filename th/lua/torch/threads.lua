-- torch.setnumthreads / torch.getnumthreads: the number of threads Torch7 gave
-- OpenMP.  th keeps the number (nn's tests set it around their run); its bulk
-- operations choose their own threading.
local torch = require 'torch'
local internal = require 'torch.internal'

local nthreads = internal.py.nn_numcores()

function torch.setnumthreads(n)
   if type(n) ~= 'number' then
      error(("bad argument #1 to 'setnumthreads' (number expected, got %s)")
            :format(n == nil and 'no value' or type(n)), 2)
   end
   nthreads = math.max(1, math.floor(n))
end

function torch.getnumthreads()
   return nthreads
end
