-- paths: file-system path utilities of Torch7.
local paths = {}
_G.paths = paths
package.loaded.paths = paths

return paths
