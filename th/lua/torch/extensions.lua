-- Modules loaded after the Tensor core, each adding one family of functions
-- to torch and the tensor classes.  A new family is one more line here.
return {
}
