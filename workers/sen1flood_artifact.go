package workers

// ArtifactSumWriter is implemented by an Env that can write an artifact
// whose SHA-256 the caller has already computed (typically to name the file
// after its content), so that the bytes are hashed once.
type ArtifactSumWriter interface {
	// WriteArtifactSum is WriteArtifact(name, data) with sum equal to
	// sha256.Sum256(data).
	WriteArtifactSum(name string, data []byte, sum [32]byte) (Artifact, error)
}

// writeArtifactSum writes data, whose SHA-256 is sum, through env without
// hashing it again when env supports it.
func writeArtifactSum(env Env, name string, data []byte, sum [32]byte) (Artifact, error) {
	if w, ok := env.(ArtifactSumWriter); ok {
		return w.WriteArtifactSum(name, data, sum)
	}
	return env.WriteArtifact(name, data)
}

// ArtifactFileWriter is implemented by an Env that can write an
// artifact's file before its SHA-256 is known, so that one core writes
// the bytes while another hashes them.
type ArtifactFileWriter interface {
	// WriteArtifactFile writes data as WriteArtifact(name, data) does and
	// returns the artifact without its SHA256, which the caller sets to
	// the hex SHA-256 of data.
	WriteArtifactFile(name string, data []byte) (Artifact, error)
}
