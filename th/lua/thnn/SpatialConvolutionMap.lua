-- SpatialConvolutionMap: a convolution whose kernel k (weight nConn x kH x kW)
-- links input plane connTable[k][1] to output plane connTable[k][2] (thnn/convmap.lua)
return require('thnn.convmap')('SpatialConvolutionMap', false)
