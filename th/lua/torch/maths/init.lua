-- The maths reference of Torch7, one file per family; each file installs its
-- functions as torch.f and as methods of the tensor types (see dispatch.lua
-- for the argument forms they share).
require 'torch.maths.construct'
require 'torch.maths.elementwise'
require 'torch.maths.basic'
require 'torch.maths.blas'
require 'torch.maths.reduce'
require 'torch.maths.compare'
require 'torch.maths.operators'
require 'torch.maths.match'
