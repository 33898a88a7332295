package scoring

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Identity tokens that stand for a record's own id and sample id in a
// trajectory fingerprint.
const (
	tokenRecordID = "<record_id>"
	tokenSampleID = "<sample_id>"
)

// TrajectoryFingerprint returns the complete-trajectory fingerprint of a
// single-agent episode (one JSON object with id, sample_id, messages and
// tool_sequence): the hex SHA-256 of the canonical JSON of messages and
// tool_sequence with the record's identity metadata excluded. Every
// occurrence of the record's id (also in the form artifact locators name
// it, each character outside [A-Za-z0-9._-] replaced by "_") and of its
// sample id, in any string or object key, is replaced by a fixed token:
// sample directories in declared paths, generated-artifact:// locators and
// the question view's id fields name the record, so two records over
// path-renamed copies of the same files share a fingerprint, while any
// difference in a question, argument, file digest or observation makes
// fingerprints differ. Object keys are sorted; numbers are kept as written.
func TrajectoryFingerprint(episode []byte) (string, error) {
	v, err := DecodeJSON(episode)
	if err != nil {
		return "", err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "", errors.New("episode is not a JSON object")
	}
	id, _ := obj["id"].(string)
	if id == "" {
		return "", errors.New("episode has no id")
	}
	sample, _ := obj["sample_id"].(string)
	msgs, ok := obj["messages"].([]any)
	if !ok {
		return "", fmt.Errorf("episode %s has no messages array", id)
	}
	seq, ok := obj["tool_sequence"].([]any)
	if !ok {
		return "", fmt.Errorf("episode %s has no tool_sequence array", id)
	}
	r := identityReplacer(id, sample)
	return fingerprint(map[string]any{
		"messages":      withoutIdentity(msgs, r),
		"tool_sequence": withoutIdentity(seq, r),
	}), nil
}

// TrajectoryGroupID is the trajectory_content_group_id of a fingerprint.
func TrajectoryGroupID(fingerprint string) string {
	if len(fingerprint) > 16 {
		fingerprint = fingerprint[:16]
	}
	return "traj_" + fingerprint
}

var locatorUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// identityReplacer replaces a record's identity strings, longest first.
func identityReplacer(id, sample string) *strings.Replacer {
	forms := map[string]string{id: tokenRecordID, locatorUnsafe.ReplaceAllString(id, "_"): tokenRecordID}
	if sample != "" {
		forms[sample] = tokenSampleID
	}
	keys := make([]string, 0, len(forms))
	for k := range forms {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	var pairs []string
	for _, k := range keys {
		pairs = append(pairs, k, forms[k])
	}
	return strings.NewReplacer(pairs...)
}

// withoutIdentity copies a decoded JSON value with r applied to every
// string and object key.
func withoutIdentity(v any, r *strings.Replacer) any {
	switch x := v.(type) {
	case string:
		return r.Replace(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutIdentity(e, r)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[r.Replace(k)] = withoutIdentity(e, r)
		}
		return out
	}
	return v
}
