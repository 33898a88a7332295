package mcp

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// ToolSchema returns the JSON Schema (draft 2020-12, as a JSON-ready map)
// of a worker's arguments: the union of every variant's parameters, named
// as in the record format. A parameter is required when every variant
// requires it; string enums, flag names, handle-map slots and list items are
// the union over the variants that restrict them (unrestricted when any
// variant leaves them open). The workers still validate each call against
// the variant its discriminating argument selects, so the schema guides a
// client and never widens what a call may do.
func ToolSchema(reg *workers.Registry, tool string) (map[string]any, error) {
	info, ok := workers.LookupTool(tool)
	if !ok {
		return nil, fmt.Errorf("tool schema: unknown worker %q", tool)
	}
	variants := reg.Variants(tool)
	if len(variants) == 0 {
		return nil, fmt.Errorf("tool schema: worker %s has no variants", tool)
	}
	type merged struct {
		kinds    map[workers.ParamKind]bool
		enum     map[string]bool
		open     bool // some variant leaves the values unrestricted
		docs     []string
		required int // variants that require it
	}
	params := map[string]*merged{}
	var order []string
	for _, v := range variants {
		for _, p := range v.Params {
			m := params[p.Name]
			if m == nil {
				m = &merged{kinds: map[workers.ParamKind]bool{}, enum: map[string]bool{}}
				params[p.Name] = m
				order = append(order, p.Name)
			}
			m.kinds[p.Kind] = true
			if len(p.Enum) == 0 {
				m.open = true
			}
			for _, e := range p.Enum {
				m.enum[e] = true
			}
			if p.Doc != "" && !slices.Contains(m.docs, p.Doc) {
				m.docs = append(m.docs, p.Doc)
			}
			if p.Required {
				m.required++
			}
		}
	}
	props := map[string]any{}
	var required []string
	for _, name := range order {
		m := params[name]
		var enum []string
		if !m.open {
			enum = slices.Sorted(maps.Keys(m.enum))
		}
		prop := propertySchema(m.kinds, enum)
		desc := strings.Join(m.docs, "; ")
		if slices.Contains(info.Keys, name) {
			desc = strings.TrimPrefix(desc+"; selects the variant (see the tool description)", "; ")
		}
		if desc != "" {
			prop["description"] = desc
		}
		props[name] = prop
		if m.required == len(variants) {
			required = append(required, name)
		}
	}
	sort.Strings(required)
	schema := map[string]any{
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
	}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema, nil
}

// propertySchema is the schema of one argument given the kinds the
// variants declare for it and its allowed values (nil: unrestricted).
func propertySchema(kinds map[workers.ParamKind]bool, enum []string) map[string]any {
	if len(kinds) == 1 {
		for k := range kinds {
			return kindSchema(k, enum)
		}
	}
	// Variants disagree on the shape (a discriminant given as a string by
	// one variant and as flags by another): accept any of the shapes.
	var ks []workers.ParamKind
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	alts := make([]any, 0, len(ks))
	for _, k := range ks {
		alts = append(alts, kindSchema(k, enum))
	}
	return map[string]any{"anyOf": alts}
}

// kindSchema is the schema of one argument shape.
func kindSchema(k workers.ParamKind, enum []string) map[string]any {
	s := map[string]any{}
	if t := k.String(); t != "any" {
		s["type"] = t
	}
	switch k {
	case workers.KindHandle:
		s["pattern"] = "^[a-z][a-z0-9_]*_[0-9]+$"
		s["description"] = "a handle name"
	case workers.KindString:
		if enum != nil {
			s["enum"] = enum
		}
	case workers.KindNumber, workers.KindInteger:
	case workers.KindHandleMap:
		if enum != nil {
			slots := map[string]any{}
			for _, e := range enum {
				slots[e] = map[string]any{"type": "string", "description": "a handle name"}
			}
			s["properties"] = slots
			s["additionalProperties"] = false
		} else {
			s["additionalProperties"] = map[string]any{"type": "string"}
		}
		s["minProperties"] = 1
	case workers.KindFlags:
		if enum != nil {
			flags := map[string]any{}
			for _, e := range enum {
				flags[e] = map[string]any{"type": "boolean"}
			}
			s["properties"] = flags
			s["additionalProperties"] = false
		} else {
			s["additionalProperties"] = map[string]any{"type": "boolean"}
		}
	case workers.KindStringList:
		items := map[string]any{"type": "string"}
		if enum != nil {
			items["enum"] = enum
		}
		s["items"] = items
	}
	return s
}

// toolDescription describes a worker for a client: its owner role, output
// handle prefix and every variant as a call template: the discriminating
// argument's value, then each argument (required ones marked with *), its
// allowed values when few, and what it expects.
func toolDescription(reg *workers.Registry, info workers.ToolInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GeoDisaster worker %s (owner %s). Returns a new %s_N handle and its evidence.", info.Name, info.Role, info.Output)
	fmt.Fprintf(&b, " The variant is selected by %s:", strings.Join(quoteAll(info.Keys), " or "))
	for _, v := range reg.Variants(info.Name) {
		var args []string
		sel := "(default)"
		for _, p := range v.Params {
			if slices.Contains(info.Keys, p.Name) && v.Value != "" {
				sel = selector(p, v.Value)
				continue
			}
			a := p.Name
			if p.Required {
				a += "*"
			}
			if len(p.Enum) > 0 && len(p.Enum) <= 8 && (p.Kind == workers.KindString || p.Kind == workers.KindStringList || p.Kind == workers.KindHandleMap || p.Kind == workers.KindFlags) {
				a += " in {" + strings.Join(p.Enum, ", ") + "}"
			}
			if p.Doc != "" {
				a += " (" + p.Doc + ")"
			}
			args = append(args, a)
		}
		fmt.Fprintf(&b, "\n- %s: %s", sel, strings.Join(args, "; "))
	}
	b.WriteString("\n(* required; handle arguments name handles of this session.)")
	return b.String()
}

// selector renders a variant's discriminating argument as it is passed:
// key="value" for strings, key={"flag":true,...} for flag objects.
func selector(p workers.Param, value string) string {
	if p.Kind == workers.KindFlags {
		var flags []string
		for _, f := range strings.Split(value, "+") {
			flags = append(flags, fmt.Sprintf("%q:true", f))
		}
		return p.Name + "={" + strings.Join(flags, ",") + "}"
	}
	return fmt.Sprintf("%s=%q", p.Name, value)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "`" + s + "`"
	}
	return out
}
