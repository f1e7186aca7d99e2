-- SpatialFullConvolutionMap: the transposed convolution whose kernel k links
-- input plane connTable[k][1] to output plane connTable[k][2]; output size
-- (in - 1) * d + k (thnn/convmap.lua)
return require('thnn.convmap')('SpatialFullConvolutionMap', true)
