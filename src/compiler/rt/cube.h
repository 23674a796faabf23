/* --- cube unit (mmad, load_data, fixpipe) ----------------------------------------------
 * Runtime functions of the cube APIs go here, one per API row of
 * api_table.def. */
