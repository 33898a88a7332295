package ociimage_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/internal/clitest"
	"github.com/geodisaster/engine/internal/ociimage"
)

// blob reads a blob of the layout named by its descriptor and checks its
// digest and size.
func blob(t *testing.T, dir string, d ociimage.Descriptor) []byte {
	t.Helper()
	hexd, ok := strings.CutPrefix(d.Digest, "sha256:")
	if !ok {
		t.Fatalf("digest %q", d.Digest)
	}
	b, err := os.ReadFile(filepath.Join(dir, "blobs", "sha256", hexd))
	if err != nil {
		t.Fatal(err)
	}
	if s := sha256.Sum256(b); hex.EncodeToString(s[:]) != hexd || int64(len(b)) != d.Size {
		t.Fatalf("blob %s: digest or size (%d, want %d) differs", d.Digest, len(b), d.Size)
	}
	return b
}

func decode(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
}

// TestImageHoldsOnlyTheBinary builds the image from the freshly built CLI,
// walks it the way a runtime does (index.json, manifest, config, layer),
// requires one layer with one file, the binary, as entrypoint, extracts
// it and runs "version"; a second build gives the same digest.
func TestImageHoldsOnlyTheBinary(t *testing.T) {
	binPath := clitest.Build(t, "GOOS=linux")
	bin, err := os.ReadFile(binPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "oci")
	desc, err := ociimage.Write(dir, bin, ociimage.Options{Tag: "test"})
	if err != nil {
		t.Fatal(err)
	}
	layoutB, err := os.ReadFile(filepath.Join(dir, "oci-layout"))
	if err != nil || string(layoutB) != `{"imageLayoutVersion":"1.0.0"}` {
		t.Fatalf("oci-layout %q %v", layoutB, err)
	}
	idxB, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx ociimage.Index
	decode(t, idxB, &idx)
	if idx.SchemaVersion != 2 || idx.MediaType != ociimage.MediaTypeIndex || len(idx.Manifests) != 1 {
		t.Fatalf("index %+v", idx)
	}
	md := idx.Manifests[0]
	if md.Digest != desc.Digest || md.Annotations["org.opencontainers.image.ref.name"] != "test" || md.Platform == nil || md.Platform.OS != "linux" {
		t.Fatalf("manifest descriptor %+v", md)
	}
	var man ociimage.Manifest
	decode(t, blob(t, dir, md), &man)
	if man.MediaType != ociimage.MediaTypeManifest || man.Config.MediaType != ociimage.MediaTypeConfig || len(man.Layers) != 1 || man.Layers[0].MediaType != ociimage.MediaTypeLayer {
		t.Fatalf("manifest %+v", man)
	}
	var cfg ociimage.Config
	decode(t, blob(t, dir, man.Config), &cfg)
	if strings.Join(cfg.Config.Entrypoint, " ") != "/geodisaster" || cfg.OS != "linux" || cfg.Architecture != md.Platform.Architecture || cfg.Config.User != "65532:65532" {
		t.Fatalf("config %+v", cfg)
	}
	zr, err := gzip.NewReader(bytes.NewReader(blob(t, dir, man.Layers[0])))
	if err != nil {
		t.Fatal(err)
	}
	tarball, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if s := sha256.Sum256(tarball); len(cfg.RootFS.DiffIDs) != 1 || cfg.RootFS.DiffIDs[0] != "sha256:"+hex.EncodeToString(s[:]) {
		t.Fatalf("diff_ids %v", cfg.RootFS.DiffIDs)
	}
	tr := tar.NewReader(bytes.NewReader(tarball))
	var files []string
	root := t.TempDir()
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, h.Name)
		if h.Typeflag != tar.TypeReg || h.Mode != 0o755 || h.Uid != 0 || h.Gid != 0 {
			t.Errorf("entry %s: type %c mode %o uid %d gid %d", h.Name, h.Typeflag, h.Mode, h.Uid, h.Gid)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, bin) {
			t.Errorf("entry %s is not the binary", h.Name)
		}
		if err := os.WriteFile(filepath.Join(root, filepath.Base(h.Name)), b, os.FileMode(h.Mode)); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(files, ",") != "geodisaster" {
		t.Fatalf("layer entries %v, want the binary alone", files)
	}
	// Run the extracted entrypoint, as a container runtime would.
	out, err := exec.Command(filepath.Join(root, "geodisaster"), "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "geodisaster ") {
		t.Fatalf("extracted entrypoint: %v %q", err, out)
	}
	// Reproducible: the same binary gives the same image.
	again, err := ociimage.Write(filepath.Join(t.TempDir(), "oci"), bin, ociimage.Options{Tag: "test"})
	if err != nil || again.Digest != desc.Digest {
		t.Errorf("second build %s, first %s (%v)", again.Digest, desc.Digest, err)
	}
}

func TestImageRefusals(t *testing.T) {
	if _, err := ociimage.Write(t.TempDir(), []byte("#!/bin/sh\necho hi\n"), ociimage.Options{}); err == nil || !strings.Contains(err.Error(), "not an ELF") {
		t.Errorf("a shell script: %v", err)
	}
	// A dynamically linked executable of this system, if there is one.
	for _, p := range []string{"/bin/ls", "/usr/bin/ls"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if _, err := ociimage.Write(t.TempDir(), b, ociimage.Options{}); !errors.Is(err, ociimage.ErrNotStatic) {
			t.Errorf("%s: %v, want ErrNotStatic", p, err)
		}
		break
	}
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	if _, err := ociimage.Write(full, nil, ociimage.Options{}); err == nil {
		t.Error("wrote into a non-empty directory")
	}
}
