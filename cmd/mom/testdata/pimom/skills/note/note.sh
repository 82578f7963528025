#!/bin/sh
echo "$1" >> notes.txt
