package deforestation_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/geodisaster/engine/workers/families"
)

func compileForestSchema(t *testing.T, typ string) *jsonschema.Schema {
	t.Helper()
	doc, err := families.Schema(typ)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///"+typ+".json", v); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///" + typ + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDeforestationSchemas checks each deforestation answer schema accepts
// the spec's shape and rejects extra keys, unknown classes, broken null
// states and out-of-range values.
func TestDeforestationSchemas(t *testing.T) {
	cases := []struct {
		typ  string
		good []string
		bad  []string
	}{
		{"forest_loss_detection",
			[]string{`{"label":"deforestation","evidence":{"hansen_loss_area_ha":3.2,"ndvi_drop":0.4,"rules_fired":["r"],"sar_vh_delta_db":-2}}`},
			[]string{
				`{"label":"loss","evidence":{"hansen_loss_area_ha":3.2,"ndvi_drop":0.4,"rules_fired":["r"],"sar_vh_delta_db":-2}}`,
				`{"label":"deforestation","evidence":{"hansen_loss_area_ha":3.2,"ndvi_drop":0.4,"rules_fired":[],"sar_vh_delta_db":-2}}`,
				`{"label":"deforestation","evidence":{"hansen_loss_area_ha":-1,"ndvi_drop":0.4,"rules_fired":["r"],"sar_vh_delta_db":-2}}`,
				`{"label":"deforestation","evidence":{"hansen_loss_area_ha":3.2,"ndvi_drop":0.4,"rules_fired":["r"]}}`,
				`{"label":"deforestation","cause":"x","evidence":{"hansen_loss_area_ha":3.2,"ndvi_drop":0.4,"rules_fired":["r"],"sar_vh_delta_db":-2}}`,
			}},
		{"area_estimation",
			[]string{`{"loss_area_ha":0,"evidence":{"hansen_loss_area_ha":0,"ndvi_drop":-0.1,"nbr_drop":0.0}}`},
			[]string{
				`{"loss_area_ha":1,"label":"deforestation","evidence":{"hansen_loss_area_ha":1,"ndvi_drop":0.1,"nbr_drop":0.0}}`,
				`{"loss_area_ha":1,"evidence":{"hansen_loss_area_ha":1,"ndvi_drop":null,"nbr_drop":0.0}}`,
			}},
		{"change_window_estimation",
			[]string{
				`{"label":"deforestation","change_window":{"start_epoch":"pre_1","end_epoch":"post_1"},"evidence":{"hansen_loss_area_ha":2,"ndvi_drop":0.3,"sar_vh_delta_db":-1,"selected_window_ndvi_drop":0.3,"selected_window_nbr_drop":0.2,"composite_drop_score":0.4}}`,
				`{"label":"no_deforestation","change_window":null,"evidence":{"hansen_loss_area_ha":0,"ndvi_drop":0.3,"sar_vh_delta_db":-1,"selected_window_ndvi_drop":null,"selected_window_nbr_drop":null,"composite_drop_score":null}}`,
			},
			[]string{
				`{"label":"deforestation","change_window":null,"evidence":{"hansen_loss_area_ha":2,"ndvi_drop":0.3,"sar_vh_delta_db":-1,"selected_window_ndvi_drop":null,"selected_window_nbr_drop":null,"composite_drop_score":null}}`,
				`{"label":"no_deforestation","change_window":{"start_epoch":"pre_1","end_epoch":"post_1"},"evidence":{"hansen_loss_area_ha":0,"ndvi_drop":0.3,"sar_vh_delta_db":-1,"selected_window_ndvi_drop":null,"selected_window_nbr_drop":null,"composite_drop_score":null}}`,
				`{"label":"no_deforestation","change_window":null,"evidence":{"hansen_loss_area_ha":0,"ndvi_drop":0.3,"sar_vh_delta_db":-1,"selected_window_ndvi_drop":0.1,"selected_window_nbr_drop":null,"composite_drop_score":null}}`,
				`{"label":"no_deforestation","change_window":null,"evidence":{"hansen_loss_area_ha":0,"ndvi_drop":null,"sar_vh_delta_db":-1,"selected_window_ndvi_drop":null,"selected_window_nbr_drop":null,"composite_drop_score":null}}`,
				`{"label":"deforestation","change_window":{"start_epoch":"pre_4","end_epoch":"post_1"},"evidence":{"hansen_loss_area_ha":2,"ndvi_drop":0.3,"sar_vh_delta_db":-1,"selected_window_ndvi_drop":0.3,"selected_window_nbr_drop":0.2,"composite_drop_score":0.4}}`,
			}},
		{"false_positive_rejection",
			[]string{`{"cause":"water_flood_edge","evidence":{"hansen_loss_area_ha":0,"nbr_drop":0,"ndvi_drop":0,"rules_fired":["r"],"sar_vh_delta_db":0,"sar_vv_post_mean_db":-17,"treecover2000_mean_pct":0}}`},
			[]string{
				`{"cause":"flood","evidence":{"hansen_loss_area_ha":0,"nbr_drop":0,"ndvi_drop":0,"rules_fired":["r"],"sar_vh_delta_db":0,"sar_vv_post_mean_db":-17,"treecover2000_mean_pct":0}}`,
				`{"cause":"no_change","evidence":{"hansen_loss_area_ha":0,"nbr_drop":0,"ndvi_drop":0,"rules_fired":["r"],"sar_vh_delta_db":0,"sar_vv_post_mean_db":-17,"treecover2000_mean_pct":100.5}}`,
				`{"cause":"no_change","evidence":{"hansen_loss_area_ha":0,"nbr_drop":0,"ndvi_drop":0,"rules_fired":["r"],"sar_vh_delta_db":0,"treecover2000_mean_pct":10}}`,
			}},
		{"multi_year_loss_attribution",
			[]string{`{"year":2001,"loss_ha":0.07951}`, `{"year":"no_loss","loss_ha":0.0}`, `{"year":2023,"loss_ha":616.31121}`},
			[]string{`{"year":2024,"loss_ha":1}`, `{"year":"2010","loss_ha":1}`, `{"year":"no_loss","loss_ha":2}`, `{"year":2010.5,"loss_ha":1}`, `{"year":2010,"loss_ha":-1}`, `{"year":2010}`},
		},
		{"cross_modal_concordance",
			[]string{`{"concordance":"discordant","evidence":{"nbr_drop":0.1,"ndvi_drop":0.2,"vh_delta_db":-0.5}}`},
			[]string{`{"concordance":"agree","evidence":{"nbr_drop":0.1,"ndvi_drop":0.2,"vh_delta_db":-0.5}}`, `{"concordance":"no_change","evidence":{"ndvi_drop":0.2,"vh_delta_db":-0.5}}`},
		},
		{"severity_proxy_numeric",
			[]string{`{"vh_delta_db":-3,"severity":"moderate"}`},
			[]string{`{"vh_delta_db":-3,"severity":"high"}`, `{"vh_delta_db":null,"severity":"none"}`, `{"vh_delta_db":0,"severity":"none","units":"dB"}`},
		},
	}
	for _, c := range cases {
		s := compileForestSchema(t, c.typ)
		check := func(doc string, ok bool) {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(v); (err == nil) != ok {
				t.Errorf("%s: %s: valid=%v, want %v (%v)", c.typ, doc, err == nil, ok, err)
			}
		}
		for _, d := range c.good {
			check(d, true)
		}
		for _, d := range c.bad {
			check(d, false)
		}
	}
}
