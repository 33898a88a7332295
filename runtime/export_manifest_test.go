package runtime

// For the tests of output directories, which build manifests by hand.
var DigestIDs = digestIDs

const ManifestFormat = manifestFormat
