-- The torch module: Tensor, Storage and the utility functions of Torch7.
-- The pieces live in files named for their family; this file only loads them
-- in dependency order.  `torch` is also a global, as in the original.
local torch = {}
_G.torch = torch
package.loaded.torch = torch

require 'torch.class'
require 'torch.Storage'
require 'torch.Tensor'
require 'torch.indexing'
require 'torch.printing'
require 'torch.utils'

for _, name in ipairs(require 'torch.extensions') do
   require(name)
end

return torch
