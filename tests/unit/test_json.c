// SPDX-License-Identifier: MIT
/* test_json.c - the writer's nesting, commas and escaping, byte for byte. */
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "unit.h"

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	const char *want =
		"{\n"
		"  \"name\" : \"a \\\"quoted\\\" \\\\ back\\nslash\\ttab\\u0001\",\n"
		"  \"n\" : -3,\n"
		"  \"u\" : 18446744073709551615,\n"
		"  \"d\" : 1.500000,\n"
		"  \"empty\" : {},\n"
		"  \"list\" : [\n"
		"    {\n"
		"      \"b\" : true\n"
		"    },\n"
		"    \"x\"\n"
		"  ]\n"
		"}\n";

	json_init(&j, f);
	json_obj_open(&j, NULL);
	json_str(&j, "name", "a \"quoted\" \\ back\nslash\ttab\x01");
	json_int(&j, "n", -3);
	json_uint(&j, "u", 18446744073709551615ull);
	json_double(&j, "d", 1.5);
	json_obj_open(&j, "empty");
	json_obj_close(&j);
	json_arr_open(&j, "list");
	json_obj_open(&j, NULL);
	json_bool(&j, "b", 1);
	json_obj_close(&j);
	json_str(&j, NULL, "x");
	json_arr_close(&j);
	json_obj_close(&j);
	fclose(f);
	CHECK(!strcmp(buf, want), "got:\n%s\nwant:\n%s", buf, want);
	free(buf);
	return unit_done();
}
