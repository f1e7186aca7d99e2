-- What an operation's first call costs in a new process, against its second:
-- the imports, libraries, generated loops and traces th makes on first use
-- (Torch7 loaded its libraries at start-up).  Under any th (only Torch7's
-- API is used).  Prints "name first_ms again_ms" for the case named, or the
-- names of every case with no argument; firstcall.py runs each case in a
-- process of its own under two th commands and prints the table.
--   th firstcall.lua [name]

-- name -> function making the operation (its setup is not timed)
local cases = {
   sort_1e3 = function() local x = torch.rand(1000) return function() torch.sort(x) end end,
   sort_1e5 = function() local x = torch.rand(100000) return function() torch.sort(x) end end,
   topk_1e5 = function() local x = torch.rand(100000) return function() torch.topk(x, 10) end end,
   median_1e4 = function() local x = torch.rand(10000) return function() torch.median(x) end end,
   kthvalue_1e4 = function() local x = torch.rand(10000) return function() torch.kthvalue(x, 5) end end,
   mode_1e4 = function() local x = torch.rand(10000) return function() torch.mode(x) end end,
   svd_50 = function() local A = torch.rand(50, 50) return function() torch.svd(A) end end,
   inverse_50 = function() local A = torch.rand(50, 50) return function() torch.inverse(A) end end,
   eig_30 = function() local A = torch.rand(30, 30) return function() torch.eig(A) end end,
   symeig_30 = function()
      local A = torch.rand(30, 30)
      A:add(A:t():clone())
      return function() torch.symeig(A) end
   end,
   gesv_30 = function() local A, B = torch.rand(30, 30), torch.rand(30, 2) return function() torch.gesv(B, A) end end,
   gels_30x20 = function() local A, B = torch.rand(30, 20), torch.rand(30, 2) return function() torch.gels(B, A) end end,
   qr_30 = function() local A = torch.rand(30, 30) return function() torch.qr(A) end end,
   potrf_30 = function()
      local A = torch.rand(30, 30)
      A = torch.mm(A, A:t()):add(torch.eye(30))
      return function() torch.potrf(A) end
   end,
   trtrs_30 = function()
      local A, B = torch.rand(30, 30):triu():add(torch.eye(30)), torch.rand(30, 2)
      return function() torch.trtrs(B, A) end
   end,
   mm_10 = function() local A = torch.rand(10, 10) return function() torch.mm(A, A) end end,
   mm_300 = function() local A = torch.rand(300, 300) return function() torch.mm(A, A) end end,
   mv_300 = function() local A, v = torch.rand(300, 300), torch.rand(300) return function() torch.mv(A, v) end end,
   conv2_100_k5 = function() local A, K = torch.rand(100, 100), torch.rand(5, 5) return function() torch.conv2(A, K) end end,
   xcorr2_100_k5 = function() local A, K = torch.rand(100, 100), torch.rand(5, 5) return function() torch.xcorr2(A, K) end end,
   conv3_10_k3 = function() local A, K = torch.rand(10, 10, 10), torch.rand(3, 3, 3) return function() torch.conv3(A, K) end end,
   add_1e6 = function() local x, y = torch.rand(1000000), torch.rand(1000000) return function() x:add(y) end end,
   exp_1e5 = function() local x = torch.rand(100000) return function() torch.exp(x) end end,
   pow_1e5 = function() local x = torch.rand(100000) return function() torch.pow(x, 2.5) end end,
   sum_1e6 = function() local x = torch.rand(1000000) return function() x:sum() end end,
   std_1e5 = function() local x = torch.rand(100000) return function() x:std() end end,
   cumsum_1e5 = function() local x = torch.rand(100000) return function() torch.cumsum(x) end end,
   float_lt_1e5 = function() local x = torch.FloatTensor(100000):uniform() return function() torch.lt(x, 0.5) end end,
   index_500x100 = function()
      local x, i = torch.rand(1000, 100), torch.LongTensor(500):random(1, 1000)
      return function() x:index(1, i) end
   end,
   maskedSelect_1e5 = function() local x = torch.rand(100000) return function() x:maskedSelect(x:gt(0.5)) end end,
   nonzero_1e5 = function() local x = torch.rand(100000) return function() torch.nonzero(x:gt(0.5)) end end,
   randperm_1e5 = function() return function() torch.randperm(100000) end end,
   multinomial_1e3 = function() local p = torch.rand(1000) return function() torch.multinomial(p, 100, true) end end,
   histc_1e4 = function() local x = torch.rand(10000) return function() torch.histc(x, 10) end end,
   uniform_1e6 = function() local x = torch.Tensor(1000000) return function() x:uniform() end end,
   normal_1e6 = function() local x = torch.Tensor(1000000) return function() x:normal() end end,
   tostring_100x100 = function() local x = torch.rand(100, 100) return function() tostring(x) end end,
   save_load_1e3 = function()
      local x, file = torch.rand(1000), os.tmpname()
      return function() torch.save(file, x); torch.load(file); os.remove(file) end
   end,
}

local name = arg and arg[1]
if not name then
   local names = {}
   for k in pairs(cases) do names[#names + 1] = k end
   table.sort(names)
   print(table.concat(names, '\n'))
   return
end
local op = assert(cases[name], 'no case ' .. name)()
local timer = torch.Timer()
op()
local first = timer:time().real
timer:reset()
op()
print(string.format('%s %.3f %.3f', name, first * 1e3, timer:time().real * 1e3))
