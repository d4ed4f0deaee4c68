package web

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// checkFields runs CheckText over every string a decoded body holds: struct fields
// (named by their JSON names), slice elements (items[0].courseId) and map keys and
// values (metadata.plan). A field tagged `text:"multiline"` may hold line breaks.
func checkFields(v reflect.Value, path string, multiline bool) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return checkFields(v.Elem(), path, multiline)
	case reflect.String:
		return CheckText(path, v.String(), multiline)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes, not text
		}
		for i := 0; i < v.Len(); i++ {
			if err := checkFields(v.Index(i), path+"["+strconv.Itoa(i)+"]", multiline); err != nil {
				return err
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			if k.Kind() == reflect.String {
				if fault := TextFault(k.String(), false); fault != "" {
					return Invalid(path, "%s keys %s", path, fault)
				}
			}
			if err := checkFields(v.MapIndex(k), joinField(path, k.String()), multiline); err != nil {
				return err
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if err := checkFields(v.Field(i), joinField(path, name), f.Tag.Get("text") == "multiline"); err != nil {
				return err
			}
		}
	}
	return nil
}

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
