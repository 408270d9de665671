#!/bin/sh
# A busy workload for the recorder tests: two threads of one process spinning until the file
# $1 exists (or for at most $2 seconds). Perl threads give one pid with two tids, as an
# inference runtime's thread pool has.
exec perl -Mthreads -e '
my ($stop, $max) = @ARGV; my $end = time + $max;
sub spin { my $x = 0; while (!-e $stop && time < $end) { $x++ for 1 .. 100000 } }
my @t = map { threads->create(\&spin) } 1 .. 2; $_->join for @t;
print "busy: done\n";' "$1" "${2:-60}"
