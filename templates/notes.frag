notes.frag: words written inside comments, and where a value came from
when the spec did not write it (README.md in this directory describes the
format; compiler/emit.c writes them).

@@ text
${text}$
@@ overlap
segments '${first}' and '${second}'$
@@ note_size_and
${iec}: ${expr}$
@@ note_at
${note}${at:@}$
@@ note_not_set
not set$
@@ note_page
the arch's page size$
@@ note_prev_end
the end of the previous segment$
@@ note_size
the segment's size$
@@ note_bank_rest
the rest of the segment$
@@ note_bar_bits
by size$
