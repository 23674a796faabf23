/* --- adv maths (pyasc.adv) -----------------------------------------------------------
 * Runtime functions of the high-level maths APIs go here, one per API row
 * of api_table.def; they may use every unit above. */
