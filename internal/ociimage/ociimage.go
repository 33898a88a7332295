// Package ociimage writes a container image holding one static binary as
// an OCI image layout (a directory: oci-layout, index.json, blobs/sha256/),
// offline, with no base image: one layer whose only entry is the binary,
// which is the image's entrypoint. The output is a pure function of the
// binary and the options (fixed timestamps, owners and gzip header), so the
// same binary gives the same image digest everywhere.
//
// A layout is what skopeo ("skopeo copy oci:DIR:TAG docker://REGISTRY/..."),
// podman ("podman pull oci:DIR:TAG"), crane ("crane push DIR REF") and
// containerd read.
package ociimage

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/geodisaster/engine/internal/atomicfile"
)

// Media types of the OCI image specification (v1.1).
const (
	MediaTypeIndex    = "application/vnd.oci.image.index.v1+json"
	MediaTypeManifest = "application/vnd.oci.image.manifest.v1+json"
	MediaTypeConfig   = "application/vnd.oci.image.config.v1+json"
	MediaTypeLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
	annotationRefName = "org.opencontainers.image.ref.name"
)

// Options describe the image.
type Options struct {
	// Name is the binary's path in the image (default "/geodisaster"); it
	// is the entrypoint.
	Name string
	// Tag names the image in index.json (org.opencontainers.image.ref.name).
	Tag string
	// User is the user the entrypoint runs as (default "65532:65532", a
	// non-root id; the image has no /etc/passwd, so it is numeric).
	User string
	// Annotations are added to the manifest (e.g.
	// org.opencontainers.image.version).
	Annotations map[string]string
}

// Descriptor points to one blob.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *Platform         `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Platform is an image's OS and architecture.
type Platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

// Manifest is an image manifest.
type Manifest struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	Config        Descriptor        `json:"config"`
	Layers        []Descriptor      `json:"layers"`
	Annotations   map[string]string `json:"annotations,omitempty"`
}

// Index is index.json.
type Index struct {
	SchemaVersion int          `json:"schemaVersion"`
	MediaType     string       `json:"mediaType"`
	Manifests     []Descriptor `json:"manifests"`
}

// Config is the image configuration.
type Config struct {
	Architecture string          `json:"architecture"`
	OS           string          `json:"os"`
	Config       ContainerConfig `json:"config"`
	RootFS       RootFS          `json:"rootfs"`
	History      []History       `json:"history,omitempty"`
}

// ContainerConfig is how a container of the image runs.
type ContainerConfig struct {
	User       string   `json:"User,omitempty"`
	Entrypoint []string `json:"Entrypoint"`
	WorkingDir string   `json:"WorkingDir,omitempty"`
}

// RootFS lists the uncompressed layers' digests.
type RootFS struct {
	Type    string   `json:"type"`
	DiffIDs []string `json:"diff_ids"`
}

// History describes how a layer was made.
type History struct {
	CreatedBy string `json:"created_by,omitempty"`
	Comment   string `json:"comment,omitempty"`
}

// ErrNotStatic refuses a binary that needs a dynamic loader (it could not
// run in an image that holds nothing else).
var ErrNotStatic = errors.New("ociimage: the binary is dynamically linked (build it with CGO_ENABLED=0)")

// Write writes the image of binary (an ELF executable for Linux) as an OCI
// layout into dir, which must be absent or empty, and returns the
// manifest's descriptor. The platform is read from the ELF header.
func Write(dir string, binary []byte, opts Options) (Descriptor, error) {
	plat, err := platformOf(binary)
	if err != nil {
		return Descriptor{}, err
	}
	if opts.Name == "" {
		opts.Name = "/geodisaster"
	}
	if opts.User == "" {
		opts.User = "65532:65532"
	}
	if !path.IsAbs(opts.Name) || path.Clean(opts.Name) != opts.Name || opts.Name == "/" {
		return Descriptor{}, fmt.Errorf("ociimage: binary path %q must be absolute and clean", opts.Name)
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return Descriptor{}, fmt.Errorf("ociimage: %s is not empty", dir)
	}
	tarball, err := layerTar(opts.Name[1:], binary)
	if err != nil {
		return Descriptor{}, err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return Descriptor{}, err
	}
	// The gzip header keeps its zero modification time and no name.
	if _, err := zw.Write(tarball); err != nil {
		return Descriptor{}, err
	}
	if err := zw.Close(); err != nil {
		return Descriptor{}, err
	}
	blobs := map[string][]byte{}
	add := func(mediaType string, b []byte) Descriptor {
		d := Descriptor{MediaType: mediaType, Digest: digest(b), Size: int64(len(b))}
		blobs[d.Digest] = b
		return d
	}
	layer := add(MediaTypeLayer, gz.Bytes())
	cfg, err := json.Marshal(Config{
		Architecture: plat.Architecture, OS: plat.OS,
		Config:  ContainerConfig{User: opts.User, Entrypoint: []string{opts.Name}, WorkingDir: "/"},
		RootFS:  RootFS{Type: "layers", DiffIDs: []string{digest(tarball)}},
		History: []History{{CreatedBy: "internal/ociimage: the static binary " + opts.Name + ", no base image"}},
	})
	if err != nil {
		return Descriptor{}, err
	}
	config := add(MediaTypeConfig, cfg)
	man, err := json.Marshal(Manifest{SchemaVersion: 2, MediaType: MediaTypeManifest, Config: config, Layers: []Descriptor{layer}, Annotations: opts.Annotations})
	if err != nil {
		return Descriptor{}, err
	}
	md := add(MediaTypeManifest, man)
	md.Platform = &plat
	if opts.Tag != "" {
		md.Annotations = map[string]string{annotationRefName: opts.Tag}
	}
	idx, err := json.Marshal(Index{SchemaVersion: 2, MediaType: MediaTypeIndex, Manifests: []Descriptor{md}})
	if err != nil {
		return Descriptor{}, err
	}
	// Blobs first, index.json last: a layout with an index is complete.
	if err := os.MkdirAll(filepath.Join(dir, "blobs", "sha256"), 0o755); err != nil {
		return Descriptor{}, err
	}
	for d, b := range blobs {
		if err := atomicfile.WriteFile(filepath.Join(dir, "blobs", "sha256", d[len("sha256:"):]), b, 0o644, false); err != nil {
			return Descriptor{}, err
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644, false); err != nil {
		return Descriptor{}, err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "index.json"), idx, 0o644, false); err != nil {
		return Descriptor{}, err
	}
	return md, nil
}

// layerTar is a tar holding one regular file, name, mode 0755, owned by
// root, dated at the Unix epoch.
func layerTar(name string, data []byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	hdr := &tar.Header{
		Typeflag: tar.TypeReg, Name: name, Mode: 0o755, Size: int64(len(data)),
		ModTime: time.Unix(0, 0), Format: tar.FormatPAX,
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, err
	}
	if _, err := tw.Write(data); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// platformOf reads the OS and architecture of a Linux ELF executable and
// refuses one that needs a dynamic loader.
func platformOf(binary []byte) (Platform, error) {
	f, err := elf.NewFile(bytes.NewReader(binary))
	if err != nil {
		return Platform{}, fmt.Errorf("ociimage: not an ELF executable: %w", err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return Platform{}, ErrNotStatic
		}
	}
	arch := map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64", elf.EM_386: "386", elf.EM_ARM: "arm", elf.EM_RISCV: "riscv64", elf.EM_PPC64: "ppc64le", elf.EM_S390: "s390x"}[f.Machine]
	if arch == "" {
		return Platform{}, fmt.Errorf("ociimage: unsupported ELF machine %v", f.Machine)
	}
	if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return Platform{}, fmt.Errorf("ociimage: ELF type %v is not an executable", f.Type)
	}
	return Platform{Architecture: arch, OS: "linux"}, nil
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}
